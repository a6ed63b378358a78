import { describe, expect, it } from 'vitest';
import { defaultSecretDetector } from '../detector.js';
import { ALNUM, sample } from './sample.js';

/** A password as people pick them, different in every case. */
const pw = (salt: string): string => sample(ALNUM, 12, salt) + '%2';

/**
 * Every command-line and server-config form of a password, whichever rule finds it (`--password=`
 * forms are cli-user-password's and the generic rule's): each must be found with exactly the
 * password's span.
 */
const FORMS: readonly ((p: string) => string)[] = [
  (p) => `mysql -h db -uroot -p${p} shop`,
  (p) => `mysqldump --single-transaction -u backup --password=${p} shop`,
  (p) => `mariadb-dump -u app -p'${p}' app > app.sql`,
  (p) => `docker login -u ci -p ${p} ghcr.internal`,
  (p) => `docker login --username ci --password ${p} ghcr.internal`,
  (p) => `docker login --password=${p} ghcr.internal`,
  (p) => `sshpass -p${p} scp dump.sql deploy@10.1.2.3:/tmp/`,
  (p) => `sshpass\t-p ${p} ssh deploy@10.1.2.3 uptime`,
  (p) => `/usr/bin/sshpass -v -p${p} rsync -a ./ deploy@10.1.2.3:/srv`,
  (p) => `redis-cli -a ${p} -n 2 keys '*'`,
  (p) => `redis-cli --pass ${p} info`,
  (p) => `mongo admin -u root -p ${p} --eval 'db.stats()'`,
  (p) => `mongosh --username root --password ${p} mongodb://db:27017`,
  (p) => `sqlcmd -S db,1433 -U sa -P${p} -i init.sql`,
  (p) => `openssl pkcs12 -in bundle.p12 -nodes -passin pass:${p}`,
  (p) => `openssl genrsa -aes256 -passout pass:${p} -out ca.key 4096`,
  (p) => `keytool -importkeystore -srckeystore a.p12 -srcstorepass ${p} -destkeystore a.jks -deststorepass ${p}`,
  (p) => `keytool -genkey -keystore app.jks -keypass ${p}`,
  (p) => `zip -q -P ${p} logs.zip *.log`,
  (p) => `7za x -p${p} backup.7z`,
  (p) => `htpasswd -Bb /etc/registry/htpasswd admin ${p}`,
  (p) => `smbclient -L fileserver -U 'CORP\\backup%${p}'`,
  (p) => `wget --user=ci --password=${p} https://artifacts.internal/a.tgz`,
  (p) => `wget --http-password=${p} https://artifacts.internal/a.tgz`,
  (p) => `curl -x http://proxy:3128 --proxy-user ops:${p} https://api.internal`,
  (p) => `requirepass ${p}`,
  (p) => `masterauth ${p}`,
  (p) => `machine artifacts.internal login ci password ${p}`,
  (p) => `machine artifacts.internal\nlogin ci\npassword ${p}\n`,
  (p) => `db.internal:5432:shop:shop_rw:${p}`,
  (p) => `GRANT ALL ON shop.* TO 'app'@'%' IDENTIFIED BY '${p}';`,
  (p) => `CREATE USER app WITH PASSWORD '${p}';`,
  (p) => `ALTER ROLE reporting PASSWORD '${p}' VALID UNTIL '2030-01-01';`,
];

/** Shapes that hold no password: variables, placeholders, prompts, and other programs' -p. */
const NOT_PASSWORDS = [
  'mysql -uroot -p$MYSQL_PWD shop',
  'mysql -uroot -p shop',
  'mysql -u root -p',
  'docker login --password "$PW" ghcr.internal',
  'docker login -u ci -p ${CI_REGISTRY_PASSWORD} $CI_REGISTRY',
  'cat token | docker login -u ci --password-stdin ghcr.internal',
  'sshpass -p <password> ssh host',
  'redis-cli -a **** ping',
  'docker run -d -p 8080:80 -p 127.0.0.1:5432:5432 postgres:16',
  'ssh -p 2222 deploy@host && scp -P 2222 a host:/tmp',
  'git log -p -- src/ && git add -p',
  'mkdir -p /var/lib/app/data && grep -P "^\\d{4}-" app.log',
  'zip -r out.zip . -x "*.git*"',
  'requirepass changeme',
  '  -a <password>      Password to use when connecting to the server.',
  "  -p[password], --password[=password]\n      The password to use when connecting to the server.",
  'machine ${NETRC_HOST} login ${NETRC_LOGIN} password ${NETRC_PASSWORD}',
  "CREATE USER 'app'@'%' IDENTIFIED BY '${APP_DB_PASSWORD}';",
];

describe('command-line and server-config passwords', () => {
  it.each(FORMS.map((form, i) => [i, form]))('finds form #%i with the password as its span', (i, form) => {
    const p = pw(`form${i}`);
    const text = form(p);
    const findings = defaultSecretDetector.findAll(text);
    expect(findings.length, text).toBeGreaterThan(0);
    for (const f of findings) expect(text.slice(f.start, f.end)).toBe(p);
  });

  it.each(NOT_PASSWORDS.map((t, i) => [i, t]))('finds nothing in non-password #%i', (_i, text) => {
    expect(defaultSecretDetector.findAll(text)).toEqual([]);
  });
});

describe('operators in a password argument', () => {
  it('are a password\'s characters after a flag that says a password follows, though code\'s between names elsewhere', () => {
    for (const salt of ['op1', 'op2', 'op3']) {
      // (both sides of `?.` read as names: the shared code filter takes the value for code)
      const value = `${sample('bcdfghjklmnpqrstvwxz', 4, salt)}?.${sample('bcdfghjklmnpqrstvwxz', 5, `${salt}b`)}4`;
      for (const text of [`mysql -u root -p${value} shop`, `psql --password=${value}`, `redis-cli -a ${value} ping`]) {
        const at = text.indexOf(value);
        expect(defaultSecretDetector.findAll(text).some((f) => f.start === at && f.end === at + value.length), text).toBe(true);
      }
      expect(defaultSecretDetector.findAll(`const password = ${value};`)).toEqual([]);
    }
  });
});

/**
 * A command read in JSON text ends at a line break escaped there (an odd count of backslashes
 * before `n`, `r` or `u000a`: the next line of a script is another command), and goes on over
 * escaped backslashes (an even count: a Windows path, `C:\repos`), so that a password after the
 * path is found. A line break escaped twice (JSON inside a JSON string) reads as a path does: the
 * command goes on, and more is read, not less. Not in the rules' own examples, which are checked
 * escaped once and twice too.
 */
const found = (text: string) => defaultSecretDetector.findAll(text).map((f) => f.ruleId);

describe('a command line inside JSON text', () => {
  it.each([
    ['\\n', `{"cmd":"mysql --version\\ntool -p${pw('cl1')} notes.txt"}`],
    ['\\r', `{"cmd":"mysql --version\\rtool -p${pw('cl1')} notes.txt"}`],
    ['\\u000a', `{"cmd":"mysql --version\\u000atool -p${pw('cl1')} notes.txt"}`],
    ['an escaped backslash, then \\n', `{"cmd":"mysql --defaults-file=C:\\\\\\ntool -p${pw('cl2')} notes.txt"}`],
    ['\\n, a secret setter', `{"script":"gh secret set DEPLOY_TOKEN --app actions\\nrsync -b ${pw('cl3')} src/ dst/"}`],
    ['\\n, a parameter store', `{"script":"aws ssm put-parameter --name /prod/flag --type String\\nmytool --value ${pw('cl4')}"}`],
  ])('ends at a line break escaped once (%s): the next line is another command', (_what, text) => {
    expect(found(text)).toEqual([]);
  });

  it.each([
    ['mysql', `{"cmd":"mysql --defaults-file=C:\\\\new\\\\my.cnf -uroot -p${pw('cl5')} app"}`, 'cli-password-flag'],
    ['sqlcmd', `{"cmd":"sqlcmd -S sql.internal -i C:\\\\repos\\\\run.sql -P ${pw('cl6')}"}`, 'cli-password-flag'],
    ['net use', `{"cmd":"net use Z: \\\\\\\\nas01\\\\share /user:CORP\\\\svc ${pw('cl7')} /persistent:no"}`, 'cli-password-flag'],
    ['gh secret set', `{"cmd":"gh secret set TOKEN --env C:\\\\repos\\\\app -b ${pw('cl8')}"}`, 'cli-config-credential'],
  ])('goes on over a Windows path whose part begins with n or r (%s): the password after it is found', (_what, text, rule) => {
    expect(found(text)).toContain(rule);
  });

  it('goes on over a line break escaped twice, which reads as a Windows path does (more read, not less)', () => {
    expect(found(`{"args":"{\\"cmd\\":\\"mysql --version\\\\ntool -p${pw('cl9')} notes.txt\\"}"}`)).toContain('cli-password-flag');
  });
});
