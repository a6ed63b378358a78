import { baseName, MAX_PATH_SCAN_LENGTH, pathTokens } from './path-tokens.js';

/** `.env` variants that are templates, committed on purpose and free of secrets. */
const ENV_TEMPLATE_SUFFIXES = new Set(['example', 'sample', 'template', 'dist', 'defaults', 'schema', 'tpl']);

const SECRET_BASENAMES = new Set([
  'id_rsa',
  'id_dsa',
  'id_ecdsa',
  'id_ed25519',
  'id_ecdsa_sk',
  'id_ed25519_sk',
  '.npmrc',
  '.netrc',
  '_netrc',
  '.pgpass',
  '.pypirc',
  '.git-credentials',
  '.dockercfg',
  'credentials.json',
  'client_secret.json',
  '.htpasswd',
  'secrets.yml',
  'secrets.yaml',
  'master.key',
  // direnv and Wrangler load these into the environment; Streamlit and .NET user secrets keep secrets in them
  '.envrc',
  '.dev.vars',
  'secrets.toml',
  'secrets.json',
  // tokens and passwords that CLIs and clients keep in the home directory
  '.vault-token',
  '.boto',
  '.s3cfg',
  '.my.cnf',
  '.mylogin.cnf',
  '.databrickscfg',
  '.terraformrc',
  'credentials.tfrc.json',
  'application_default_credentials.json',
  'kaggle.json',
  'wp-config.php',
]);

/** Paths (suffix match on `/`-joined segments) that hold credentials whatever their basename says. */
const SECRET_PATH_SUFFIXES = [
  '.aws/credentials',
  '.kube/config',
  '.docker/config.json',
  '.ssh/config',
  '.config/gh/hosts.yml',
  // the system's password hashes
  'etc/shadow',
  'etc/shadow-',
  'etc/gshadow',
  'etc/master.passwd',
  // registry and API tokens of package managers and agents
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.gem/credentials',
  '.composer/auth.json',
  '.config/composer/auth.json',
  '.codex/auth.json',
  '.m2/settings-security.xml',
  '.azure/accessTokens.json',
  '.azure/msal_token_cache.json',
  '.config/gcloud/credentials.db',
  '.config/gcloud/access_tokens.db',
  '.config/doctl/config.yaml',
  '.fly/config.yml',
  '.circleci/cli.yml',
];

/** Extensions of files that hold keys or secrets in the clear: key stores, password databases, Terraform state (resource passwords and keys as plain text). */
const SECRET_EXTENSIONS = ['.key', '.p12', '.pfx', '.jks', '.jceks', '.keystore', '.ppk', '.kdbx', '.tfstate', '.tfstate.backup'];

/** `*.pem` names that are certificates or chains, public by design. */
const PUBLIC_PEM = /(?:cert|chain|bundle|^ca[-_.]|[-_.]ca\.|pub)/i;

/** {@link SECRET_PATH_SUFFIXES} lower-cased, as names are compared. */
const SECRET_PATH_SUFFIXES_LOWER = SECRET_PATH_SUFFIXES.map((s) => s.toLowerCase());

/**
 * Whether one path-like token names a file that holds secrets. In any case: macOS's and Windows'
 * file systems ignore it by default, so `/app/.ENV` and `~/.AWS/Credentials` are the same files.
 */
export function isSecretFileName(token: string): boolean {
  let path = token.replace(/\\/g, '/').toLowerCase();
  // (a file curl or httpie sends, `@.env`; a remote or drive path, `host:.env`, `C:/app/.env`)
  if (path.startsWith('@')) path = path.replace(/^@+/, '');
  const colon = path.lastIndexOf(':');
  if (colon >= 0) path = path.slice(colon + 1);
  const base = baseName(path);
  if (base === '.env') return true;
  if (base.startsWith('.env.')) return !ENV_TEMPLATE_SUFFIXES.has(base.slice(5));
  if (SECRET_BASENAMES.has(base)) return true;
  if (SECRET_PATH_SUFFIXES_LOWER.some((s) => path === s || path.endsWith(`/${s}`))) return true;
  const extension = SECRET_EXTENSIONS.find((e) => base.endsWith(e));
  if (extension !== undefined) return base.length > extension.length && !base.endsWith('.pub.key');
  if (base.endsWith('.pem')) return !PUBLIC_PEM.test(base);
  return false;
}

/** Literal fragments every secret file name contains (lower-cased); values with none are skipped cheaply. */
const FRAGMENTS = [
  '.env', 'id_', 'rc', '.pgpass', 'credentials', '.dockercfg', 'secret', '.htpasswd', '.key', '.p12', '.pfx', '.jks', '.pem', '.kube', '.ssh', '.docker', 'hosts.yml',
  '.dev.vars', '.vault-token', '.boto', '.s3cfg', '.cnf', 'databrickscfg', 'kaggle.json', 'wp-config', 'shadow', 'passwd', 'auth.json', 'settings-security', 'token',
  'doctl', '.fly', 'circleci', '.jceks', '.keystore', '.ppk', '.kdbx', '.tfstate',
];
/** Any of {@link FRAGMENTS}, in any case: one pass over the value, no lower-cased copy. */
const ANY_FRAGMENT = new RegExp(FRAGMENTS.map((f) => f.replace(/[.]/g, '\\.')).join('|'), 'i');

/**
 * Whether a value names a secret file anywhere among its path-like tokens. A value longer than
 * {@link MAX_PATH_SCAN_LENGTH} is content, not a reference (a README that says `source .env` names
 * nothing it sends): only when it is `commands` — an argument that holds a script or a command line
 * to run ({@link holdsCommands}) — does a command in it that reads or sends the file count
 * (`cat /app/.env | curl …` at the end of a long script).
 */
export function namesSecretFile(text: string, commands = false): boolean {
  if (!ANY_FRAGMENT.test(text)) return false;
  if (text.length > MAX_PATH_SCAN_LENGTH) return commands && commandReadsSecretFile(text);
  for (const token of pathTokens(text)) if (isSecretFileName(token)) return true;
  return false;
}

/**
 * Commands that print, copy out, encode, archive or send a file named after them (`cat .env`,
 * `curl -F f=@.env`, `source .env`, `scp ~/.ssh/id_rsa host:`). Not `cp`, `mv` or `echo`: a README's
 * `cp .env.example .env` and `echo .env >> .gitignore` name the file without reading it.
 */
const READING_COMMANDS = new Set([
  'cat', 'tac', 'less', 'more', 'head', 'tail', 'nl', 'bat', 'strings', 'xxd', 'od', 'hexdump', 'base64', 'base32',
  'source', '.', 'grep', 'egrep', 'rg', 'awk', 'sed', 'cut', 'sort', 'jq', 'yq', 'diff', 'dd',
  'curl', 'wget', 'http', 'scp', 'sftp', 'rsync', 'nc', 'ncat', 'netcat', 'socat',
  'tar', 'zip', '7z', 'gzip', 'bzip2', 'xz', 'zstd', 'openssl', 'gpg', 'age',
  'type', 'get-content', 'gc', 'certutil',
]);
/**
 * Words a command line may start with before its command: a prompt, `sudo`, a Dockerfile's `RUN`, a
 * YAML list item or CI step. Not `#`: in an argument a shell or interpreter runs, a line starting
 * with it is a comment (`# cat .env` reads nothing).
 */
const COMMAND_PREFIXES = new Set(['$', '>', '-', 'sudo', 'doas', 'run', 'run:', 'exec', 'xargs', 'time', 'nohup', 'command', 'builtin', 'then', 'do', 'else']);
/**
 * Where a command starts within a line: a pipe, `;`, `&&`/`||`/`&`, a backtick or `$(`; and a
 * quote, bracket or parenthesis, where a program hands one to a shell (`os.system('cat .env')`).
 */
const COMMAND_BREAK = /[;|&`'"()[\]]|\$\(/;
/** A line break. */
const LINE_BREAK = /\r\n?|\n/;
/** A comment line of a shell, Python, Ruby, Perl, Dockerfile or YAML script (a shebang too). */
const COMMENT_LINE = /^\s*#/;

/**
 * Argument names that hold a script or a command line to run (`command`, `cmd`, `script`,
 * `shell_command`, `code`, `python_code`, …). `code` and `run` only alone or after a language's
 * name: `zip_code`, `status_code` and `dry_run` hold no commands.
 */
const COMMAND_KEY =
  /^(?:(?:.*[_.-])?(?:commands?|cmds?|cmdline|command_?line|scripts?|shell|bash|sh|zsh|pwsh|powershell|exec|execute|program|dockerfile|makefile)|(?:(?:python|py|javascript|js|typescript|ts|node|ruby|rb|perl|php|shell|bash|sh|powershell|ps|source)[_.-]?)?code|run)$/i;

/** Whether an argument named `key` (its own name, or its list's) holds commands to run. */
export function holdsCommands(key: string): boolean {
  return COMMAND_KEY.test(key);
}

/** A quoted string literal of a script or program: `'.env'` in `open('.env')` or `['cat', '.env']`. */
const STRING_LITERAL = /(['"`])([^'"`\s]{1,1024})\1/g;

/**
 * Whether a long value's lines (each command at most {@link MAX_PATH_SCAN_LENGTH} long) read or
 * send a secret file: a command that starts with a reading command and names the file after it
 * (`cat .env`, `os.system('cat .env')`), or a string literal of one word that names the file
 * (`open('.env')`, `subprocess.run(['cat', '.env'])`, `"f=@.env"`). Comment lines run nothing.
 */
function commandReadsSecretFile(text: string): boolean {
  for (const line of text.split(LINE_BREAK)) {
    if (!ANY_FRAGMENT.test(line) || COMMENT_LINE.test(line)) continue;
    for (const m of line.matchAll(STRING_LITERAL)) for (const token of pathTokens(m[2]!)) if (isSecretFileName(token)) return true;
    for (const command of line.split(COMMAND_BREAK)) {
      if (command.length > MAX_PATH_SCAN_LENGTH || !ANY_FRAGMENT.test(command)) continue;
      const tokens = pathTokens(command);
      let i = 0;
      while (i < tokens.length && COMMAND_PREFIXES.has(tokens[i]!.toLowerCase())) i++;
      if (i >= tokens.length || !READING_COMMANDS.has(baseName(tokens[i]!).toLowerCase())) continue;
      for (let j = i + 1; j < tokens.length; j++) if (isSecretFileName(tokens[j]!)) return true;
    }
  }
  return false;
}
