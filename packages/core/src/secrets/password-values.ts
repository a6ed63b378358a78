/**
 * Judgement of a password written out in full (a URL's, a command-line flag's, a server
 * config's, a SQL statement's): not a documentation default, a variable or a placeholder.
 */
import { isPlaceholder } from './placeholders.js';
import { isCredentialLike } from './value-filters.js';

/** Passwords that are documentation defaults, not secrets (`postgres://user:password@host`, `requirepass foobared`). */
const DUMMY_PASSWORDS = new Set([
  'password', 'passwd', 'pass', 'pwd', 'secret', 'changeme', 'root', 'admin', 'test', 'guest',
  'postgres', 'mysql', 'user', 'username', 'pw', 'pword', 'anonymous', 'foo', 'bar', 'baz',
  'hunter2', 'letmein', 'mypassword', 'yourpassword', 'dbpass', 'token', 'key',
  // redis.conf's commented example, the JDK's keystores' default
  'foobared', 'changeit',
  // Oracle's sample schema
  'tiger',
  // vendors' documented defaults and examples: SQL Server's container quickstart, Harbor's and
  // Nexus's first admin password, Oracle's container images, Microsoft's docs, Raspberry Pi OS
  'yourstrong@passw0rd', 'yourstrong!passw0rd', 'yourstrong(!)password', 'harbor12345', 'admin123',
  'oracle', 'oradoc_db1', 'p@ssw0rd', 'pa$$w0rd', 'passw0rd', 'raspberry',
]);

/** Longest of DUMMY_PASSWORDS: a longer password is not looked up (no lowercase copy is made). */
const DUMMY_MAX = Math.max(...[...DUMMY_PASSWORDS].map((p) => p.length));

/** A documentation default (`password`, `changeme`, `foobared`), in any case. */
export function isDocumentationPassword(pw: string): boolean {
  return pw.length <= DUMMY_MAX && DUMMY_PASSWORDS.has(pw.toLowerCase());
}

/**
 * A password as written, not a stand-in for one: four characters or more, not a documentation
 * default (`password`, `changeme`), not a variable (`$MYSQL_PWD`, `%DB_PASS%`), not a placeholder
 * (`${PASSWORD}`, `<password>`, `****`, `your_password`) or a template field (`{password}`).
 */
export function isWrittenPassword(pw: string): boolean {
  if (pw.length < 4 || isDocumentationPassword(pw)) return false;
  const c0 = pw.charCodeAt(0);
  // not $VAR, nor %VAR% or a batch file's %1 (a password may begin with a `%` otherwise: `%wlIcdPY…`)
  return c0 !== 36 && !(c0 === 37 && WINDOWS_VARIABLE.test(pw)) && !isPlaceholder(pw) && !TEMPLATE_FIELD.test(pw);
}

/** A Windows variable at a value's start: `%DB_PASS%`, `%~1`, `%1`. */
const WINDOWS_VARIABLE = /^%(?:[A-Za-z_][\w.-]*%|~?[0-9](?![A-Za-z0-9]))/;

/** A field a format string fills in: Python's `{password}`, `%(password)s`, `{0}`. */
const TEMPLATE_FIELD = /^(?:\{[\w.]*\}|%\(\w+\)s)$/;

/**
 * A password given as an argument or a config value: written out (isWrittenPassword) and, from
 * eight characters on, random enough not to be a word, a name or code (`--password=app_password`,
 * `-pPassword`), as the generic rules judge values. Shorter ones cannot show randomness; a
 * written-out short password is still one.
 */
export function isPasswordArgument(pw: string): boolean {
  // (an operator's characters are a password's here, where a flag or a keyword says a password
  // follows: `-pGpvaUWcDrlo!=8`; the shapes of names and words still are none; nor is hex a
  // digest there: `openssl rand -hex 16` makes passwords, Twilio's auth token is 32 hex)
  return isWrittenPassword(pw) && (pw.length < 8 || isCredentialLike(pw, 8, 2.5, true, false));
}
