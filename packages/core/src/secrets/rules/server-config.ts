import type { SecretRule } from '../types.js';
import { isPasswordArgument } from '../password-values.js';
import { classCount } from '../value-filters.js';
import { AFTER_JSON_ESCAPE, PROGRAM_START, SAME_COMMAND, ci, re } from './patterns.js';
import { passwordRule } from './password-rule.js';
import { rule } from './define.js';
import { sample, samplePassword } from './sample.js';

/** The alphabet of crypt(3) hashes. */
const HASH64 = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

const pw = samplePassword;

/** Whitespace between the words of a statement or a `.netrc` entry, line breaks included. */
const GAP = String.raw`[ \t\r\n]{1,40}`;

/** A quoted SQL string (group `secret`, or `secret2` in double quotes, as MySQL allows). */
const SQL_STRING = String.raw`(?:'(?<secret>[^'\r\n]{1,256})'|"(?<secret2>[^"\r\n]{1,256})")`;

/**
 * A SQL password that is a value, not a parameter: not a bind variable or host parameter
 * (`:pwd`, `@pwd`, `&pwd`, `?`), which a client fills in.
 */
function sqlPassword(secret: string): boolean {
  return !/^(?:[:@&]\w+|\?)$/.test(secret) && isPasswordArgument(secret);
}

/** Passwords in server configuration files and SQL statements. */
export const SERVER_CONFIG_RULES: readonly SecretRule[] = [
  passwordRule({
    id: 'redis-config-password',
    family: 'redis',
    description: 'Redis server password in redis.conf or on its command line (requirepass PASS, masterauth PASS, --requirepass, CONFIG SET requirepass)',
    // (anchored at `pass` and `auth`, starts the scan's first filter has for the generic rule already)
    keywords: ['pass ', 'auth '],
    before: String.raw`(?:(?<=(?<![A-Za-z0-9_])${ci('require')})${ci('pass')}|(?<=(?<![A-Za-z0-9_])${ci('master')})${ci('auth')})[ \t]{1,16}`,
    examples: {
      truePositives: [
        `bind 0.0.0.0\nprotected-mode yes\nrequirepass ${pw('r1')}\n`,
        `masterauth "${pw('r2')}"`,
        `redis-server --appendonly yes --requirepass ${pw('r3')}`,
        `redis-cli CONFIG SET requirepass '${pw('r4')}'`,
      ],
      falsePositives: ['# requirepass foobared', 'requirepass ${REDIS_PASSWORD}', 'redis-server --requirepass "$REDIS_PASSWORD"', 'requirepass <password>', 'masterauth <master-password>'],
    },
  }),
  passwordRule({
    id: 'netrc-password',
    family: 'netrc',
    description: '.netrc entry password (machine HOST login USER password PASS, on one line or several)',
    keywords: ['machine'],
    before: String.raw`(?<![A-Za-z0-9_])machine${GAP}[^\s]{1,253}(?:${GAP}(?:login|account|port)${GAP}[^\s]{1,256}){0,3}${GAP}password[ \t]{1,16}`,
    examples: {
      truePositives: [
        `machine api.heroku.com login ops@corp.internal password ${pw('n1')}`,
        `machine git.corp.internal\n  login deploy\n  password ${pw('n2')}\n`,
        `cat > ~/.netrc <<EOF\nmachine pypi.internal\nlogin ci\npassword "${pw('n3')}"\nEOF`,
      ],
      falsePositives: ['machine example.com login anonymous password anonymous', 'machine ${HOST} login ${USER} password ${PASS}', 'machine registry login ci password <token>', 'The machine learning model needs a password'],
    },
  }),
  passwordRule({
    id: 'pgpass-password',
    family: 'postgres',
    description: '.pgpass line password (host:port:database:user:PASS, on the PostgreSQL ports 5432, 5433, 6432 or any port, *)',
    // (a .pgpass line has no word of its own: its port is the marker, the host before it is read back)
    keywords: [':5432:', ':5433:', ':6432:', ':*:'],
    before: String.raw`(?<=(?:^|[\s"'\x60>=])[^\s:#"'\x60]{1,253}):(?:5432|5433|6432|\*):[^\s:"'\x60]{1,63}:[^\s:"'\x60]{1,63}:`,
    value: String.raw`(?<secret>(?:[^\s:\\"'\x60]|\\[:\\]){1,256})(?![^\r\n"'\x60\\])`,
    examples: {
      truePositives: [
        `db.internal:5432:app:app_rw:${pw('g1')}`,
        `echo "*:5432:*:replicator:${pw('g2')}" > ~/.pgpass && chmod 600 ~/.pgpass`,
        `localhost:6432:analytics:report:${pw('g3')}\npg-replica:5433:*:report:${pw('g4')}\n`,
        `printf '%s\\n' "pg.internal:*:*:migrator:${pw('g5')}" >> ~/.pgpass`,
      ],
      falsePositives: [
        'localhost:5432:mydb:postgres:postgres',
        'hostname:port:database:username:password',
        'db:5432:app:app:$PGPASSWORD',
        'db:5432:app:app:<password>',
        'localhost:*:*:postgres:postgres',
        'arn:aws:iam::*:role/deploy:*:x:y',
        'Resource: arn:aws:s3:::bucket/*:*:*:*:*',
      ],
    },
  }),
  passwordRule({
    id: 'oracle-connect-password',
    family: 'sql',
    description: "Password in an Oracle connect string, user/PASS[@db]: on the command line of Oracle's tools (sqlplus, expdp, impdp; userid=user/PASS too) and in a JDBC thin URL (jdbc:oracle:thin:user/PASS@host:1521/svc)",
    // (sqlplus at `lplus`: `sq`, `sqlp` let the scan's first filter pass common words)
    // (sqlplus at `lplus`, expdp and impdp at `pdp `: each new start of a keyword lets the scan's first filter pass more text)
    keywords: ['lplus', 'pdp ', 'jdbc:oracle:'],
    before:
      '(?:' +
      [
        // sqlplus -s scott/PASS@ORCL, expdp system/PASS@db schemas=app, rman target sys/PASS@prod, sqlplus "sys/PASS as sysdba"
        String.raw`(?:(?<=${PROGRAM_START}sq)lplus|(?<=${PROGRAM_START}(?:ex|im))pdp)(?:\.exe)?${SAME_COMMAND}(?:userid=)?["']?`,
        // jdbc:oracle:thin:scott/PASS@db:1521/ORCL
        String.raw`(?<![\w-])jdbc:oracle:(?:thin|oci8?):`,
      ].join('|') +
      String.raw`)[A-Za-z][\w$#]{0,29}/`,
    // (quoted in double quotes when it holds what the connect string means: `user/"p@ss"@db`)
    value: String.raw`(?:"(?<secret>[^"\r\n]{1,128})"|(?<secret2>[^\s"'/@;|&]{1,128}))(?=@|[\s"']|$)`,
    examples: {
      truePositives: [
        `sqlplus -s app_owner/${pw('or1')}@ORCLPDB1 @migrate.sql`,
        `expdp system/${pw('or2')}@db.internal:1521/ORCL schemas=app directory=DUMP dumpfile=app.dmp`,
        `impdp system/${pw('or3')}@stage schemas=app remap_schema=app:app_stage`,
        `expdp userid=scott/${pw('or5')}@legacy schemas=scott dumpfile=scott.dmp`,
        `spring.datasource.url=jdbc:oracle:thin:app/${pw('or6')}@db.internal:1521/ORCLPDB1`,
        `sqlplus "sys/${pw('or7')}@cdb as sysdba"`,
      ],
      falsePositives: [
        'sqlplus / as sysdba',
        'sqlplus -s /nolog @scripts/run.sql',
        'sqlplus scott/tiger@orcl',
        'sqlplus -s "$DB_USER/$DB_PASS@$DB_TNS" @report.sql',
        'sqlldr userid=/ control=load.ctl',
        'spring.datasource.url=jdbc:oracle:thin:@db.internal:1521/ORCLPDB1',
        'expdp \\"/ as sysdba\\" full=y directory=DUMP',
        'impdp app/<password>@db schemas=app',
      ],
    },
  }),
  rule({
    id: 'go-mysql-dsn-password',
    family: 'sql',
    description: "Password in a Go MySQL driver DSN (user:PASS@tcp(host:3306)/db): no scheme, the protocol's parenthesis after the @",
    keywords: ['@tcp('],
    // (the password stands before the keyword: read back in the lookbehind, its group found by indices)
    // (the driver splits at the user's first `:` and the last `@`: the password may hold either)
    pattern: /(?<=(?<![\w.:/@-])[\w.-]{1,64}:(?<secret>[^\s"'`/()\\]{1,128}))@tcp\(/g,
    secretGroup: 'secret',
    generic: true,
    validate: isPasswordArgument,
    examples: {
      truePositives: [
        `db, err := sql.Open("mysql", "app:${pw('gd1')}@tcp(db.internal:3306)/shop?parseTime=true")`,
        `DSN=report:${pw('gd2')}@tcp(mysql.internal)/analytics`,
        `dsn := "etl:Qz7@k:${pw('gd3')}@tcp(10.0.3.7:3306)/warehouse"`,
      ],
      falsePositives: ['db, err := sql.Open("mysql", "root@tcp(127.0.0.1:3306)/app")', 'dsn := fmt.Sprintf("%s:%s@tcp(%s)/%s", user, pass, host, db)', 'DSN=user:password@tcp(localhost:3306)/dbname'],
    },
  }),
  passwordRule({
    id: 'wifi-passphrase',
    family: 'wifi',
    description: "Wi-Fi passphrase or pre-shared key: wpa_supplicant.conf psk=\"PASS\", hostapd wpa_passphrase=PASS, wpa_passphrase SSID PASS, nmcli … wifi connect SSID password PASS",
    // (nmcli at `mcli`: `nm`, `nmcl` let the scan's first filter pass common words)
    // (nmcli at its `password `, a start the scan has already: each new start of a keyword lets the scan's first filter pass more text)
    keywords: ['psk=', 'wpa_passphrase', 'password '],
    before:
      '(?:' +
      [
        String.raw`(?<![\w.-])psk=[ \t]{0,4}`,
        String.raw`(?<![\w.-])wpa_passphrase(?:[ \t]{0,4}=[ \t]{0,4}|[ \t]{1,4}(?:"[^"\r\n]{1,32}"|'[^'\r\n]{1,32}'|[^\s"';|&-][^\s"';|&]{0,31})[ \t]{1,4})`,
        String.raw`(?<=${PROGRAM_START}nmcli${SAME_COMMAND})password[ \t]{1,4}`,
      ].join('|') +
      ')',
    examples: {
      truePositives: [
        `network={\n    ssid="office-5g"\n    psk="${pw('wf1')}"\n    key_mgmt=WPA-PSK\n}`,
        `interface=wlan0\nssid=lab-ap\nwpa=2\nwpa_passphrase=${pw('wf2')}\n`,
        `wpa_passphrase "Guest Network" '${pw('wf3')}' >> /etc/wpa_supplicant/wpa_supplicant.conf`,
        `nmcli dev wifi connect office-5g password ${pw('wf4')} ifname wlan0`,
      ],
      falsePositives: [
        'psk="$WIFI_PASSWORD"',
        'wpa_passphrase=<your passphrase>',
        'wpa_passphrase office-5g < passphrase.txt',
        'nmcli dev wifi connect office-5g --ask',
        'nmcli connection show',
        'psk=password',
      ],
    },
  }),
  passwordRule({
    id: 'sql-identified-by',
    family: 'sql',
    description: 'Password in a SQL IDENTIFIED BY clause (MySQL / MariaDB CREATE USER, ALTER USER, GRANT; Oracle CREATE USER)',
    keywords: ['identified'],
    before: String.raw`(?<![A-Za-z0-9_])${ci('identified')}(?:${GAP}${ci('with')}${GAP}['"\x60]?\w{1,64}['"\x60]?)?${GAP}${ci('by')}${GAP}`,
    // (unquoted, as Oracle takes it, a password must not read as a word: `identified by their email`)
    validate: (secret, match) => sqlPassword(secret) && (match.groups?.['secret3'] === undefined || classCount(secret) >= 2),
    examples: {
      truePositives: [
        `CREATE USER 'app'@'%' IDENTIFIED BY '${pw('s1')}';`,
        `ALTER USER 'root'@'localhost' IDENTIFIED WITH mysql_native_password BY '${pw('s2')}';`,
        `create user reporting identified by "${pw('s3')}"`,
        `CREATE USER app_owner IDENTIFIED BY ${pw('s4').slice(0, -1)}x9 DEFAULT TABLESPACE users;`,
        `CREATE USER 'app'@'%' IDENTIFIED BY '%${pw('s5')}';`,
      ],
      falsePositives: [
        "CREATE USER 'app'@'%' IDENTIFIED BY 'password';",
        "CREATE USER 'app'@'%' IDENTIFIED BY '<password>';",
        'ALTER USER scott IDENTIFIED BY tiger;',
        'CREATE USER app IDENTIFIED BY :new_password',
        "cursor.execute(f\"CREATE USER {user} IDENTIFIED BY '{password}'\")",
        "CREATE USER 'app'@'%' IDENTIFIED BY '${DB_PASSWORD}';",
        "CREATE USER 'app'@'%' IDENTIFIED BY '%DB_PASSWORD%';",
        'The user is identified by their email address.',
      ],
    },
  }),
  passwordRule({
    id: 'sql-user-password',
    family: 'sql',
    description: "Password in a SQL CREATE / ALTER USER, ROLE or LOGIN statement ([WITH] [ENCRYPTED] PASSWORD 'PASS', PASSWORD = 'PASS')",
    // (anchored at the password and its quote, and the statement read back: `pass` is a start the
    // scan's first filter has for the generic rule already, `create` and `alter` would add common
    // ones; one whitespace after USER, the rest read by [^;], so that no two runs compete for it)
    keywords: ["password '", 'password "', "password='", "password = '"],
    before: String.raw`(?<=(?:${AFTER_JSON_ESCAPE}|(?<![A-Za-z0-9_]))(?:${ci('create')}|${ci('alter')})${GAP}(?:${ci('user')}|${ci('role')}|${ci('login')})[ \t\r\n][^;]{0,200}?)(?<![A-Za-z0-9_])${ci('password')}[ \t]{0,8}=?[ \t]{0,8}`,
    value: SQL_STRING,
    validate: sqlPassword,
    examples: {
      truePositives: [
        `CREATE ROLE app WITH LOGIN PASSWORD '${pw('u1')}';`,
        `ALTER USER replicator WITH ENCRYPTED PASSWORD '${pw('u2')}'`,
        `psql -c "CREATE USER grafana PASSWORD '${pw('u3')}'"`,
        `CREATE LOGIN etl WITH PASSWORD = '${pw('u4')}', CHECK_POLICY = OFF;`,
      ],
      falsePositives: [
        "CREATE USER app WITH PASSWORD 'password';",
        "ALTER ROLE app PASSWORD '<new-password>';",
        "cur.execute(\"CREATE USER %s WITH PASSWORD %s\", (user, pw))",
        "ALTER USER app WITH PASSWORD '{password}'",
        'ALTER ROLE app WITH PASSWORD NULL;',
        'create a user with a strong password',
        "CREATE USER app WITH PASSWORD '********';",
      ],
    },
  }),
  passwordRule({
    id: 'sql-set-password',
    family: 'sql',
    description: "Password in a MySQL / MariaDB SET PASSWORD statement (SET PASSWORD [FOR user] = 'PASS', = PASSWORD('PASS'))",
    keywords: ['set password'],
    before: String.raw`(?<![A-Za-z0-9_])${ci('set')}${GAP}${ci('password')}(?:${GAP}${ci('for')}${GAP}[^=;\r\n]{1,160}?)?[ \t]{0,8}=[ \t]{0,8}(?:${ci('password')}[ \t]{0,4}\([ \t]{0,4})?`,
    value: SQL_STRING,
    validate: sqlPassword,
    examples: {
      truePositives: [
        `SET PASSWORD FOR 'app'@'%' = '${pw('w1')}';`,
        `mysql -uroot -e "SET PASSWORD = PASSWORD('${pw('w2')}')"`,
        `set password for root@localhost = "${pw('w3')}"`,
      ],
      falsePositives: [
        "SET PASSWORD FOR 'app'@'%' = 'password';",
        "SET PASSWORD = '<new-password>';",
        "SET PASSWORD FOR 'app'@'%' = ?",
        'Use SET PASSWORD to change your own password.',
        "SET PASSWORD FOR 'app'@'%' = '${NEW_PASSWORD}';",
      ],
    },
  }),
  passwordRule({
    id: 'sqlcipher-pragma-key',
    family: 'sql',
    description: "Passphrase or raw key of an encrypted SQLite database (SQLCipher's PRAGMA key = 'PASS', PRAGMA rekey, a schema's key, better-sqlite3's db.pragma(\"key = 'PASS'\"))",
    // (at `key ` and `key=`, starts the scan has already; PRAGMA read back)
    keywords: ['key ', 'key='],
    before: String.raw`(?<=(?:${AFTER_JSON_ESCAPE}|(?<![\w$]))(?:${ci('pragma')}[ \t]{1,8}(?:\w{1,32}\.)?|pragma\([ \t]{0,4}["'\x60])(?:${ci('re')})?)${ci('key')}[ \t]{0,8}=[ \t]{0,8}`,
    value: SQL_STRING,
    validate: sqlPassword,
    examples: {
      truePositives: [
        `PRAGMA key = '${pw('sk1')}';`,
        `sqlite3 vault.db "PRAGMA key='${pw('sk2')}'; SELECT count(*) FROM sqlite_master;"`,
        `db.pragma("key = '${pw('sk3')}'");`,
        `PRAGMA rekey = "${pw('sk4')}";`,
        `PRAGMA key = "x'${sample('0123456789ABCDEF', 64, 'sk5')}'";`,
      ],
      falsePositives: [
        "PRAGMA key = 'password';",
        'PRAGMA key = ?;',
        'db.pragma(`key = \'${passphrase}\'`);',
        "PRAGMA foreign_keys = ON;",
        "const key = 'aF3kd9Lq2ZxP';",
        "PRAGMA key = '<your passphrase>';",
      ],
    },
  }),
  rule({
    id: 'password-hash-line',
    family: 'server-config',
    description: 'A user\'s password hash as /etc/shadow and .htpasswd files hold it (user:$6$salt$hash, user:$apr1$…, user:$2y$…, user:$y$…): crackable offline, so as secret as the password',
    // (at the `:` before it: `:$` is a start few texts hold, where `$1` alone is every regex replacement)
    keywords: [':$6$', ':$5$', ':$1$', ':$2y$', ':$2b$', ':$2a$', ':$apr1$', ':$y$'],
    // (the hash after a user name and its colon, as the files write a line: a hash alone is a
    // test fixture or a library's example as often as it is anyone's password)
    pattern: re(
      String.raw`(?<=(?:(?<![\w.:$-])|${AFTER_JSON_ESCAPE})[a-z_][\w.-]{0,31}):`,
      String.raw`(?<secret>\$(?:6|5|1|2[aby]|apr1|y)\$[./A-Za-z0-9$=,]{20,200})(?=:|[ \t]*(?:[\r\n]|$|\\[nr]))`,
    ),
    secretGroup: 'secret',
    minEntropy: 3.5,
    // (the shared placeholder filter reads `$y…` as a `$VARIABLE`; the format is strict enough)
    allowPlaceholders: true,
    examples: {
      truePositives: [
        `root:$6$${sample(HASH64, 16, 'sh1')}$${sample(HASH64, 86, 'sh2')}:19800:0:99999:7:::\ndaemon:*:19800:0:99999:7:::`,
        `admin:$apr1$${sample(HASH64, 8, 'sh3')}$${sample(HASH64, 22, 'sh4')}\nops:$2y$10$${sample(HASH64, 53, 'sh5')}`,
        `deploy:$y$j9T$${sample(HASH64, 22, 'sh6')}$${sample(HASH64, 43, 'sh7')}:19900:0:99999:7:::`,
      ],
      falsePositives: [
        'root:*:19800:0:99999:7:::',
        'nobody:!:19800::::::',
        `const hash = '$2b$10$${sample(HASH64, 53, 'sh8')}'; // bcrypt of "password"`,
        'user:$6$salt$hash:19800:0:99999:7:::',
        `user:$6$${'x'.repeat(16)}$${'x'.repeat(86)}:19800:0:99999:7:::`,
        'replace(/(\\d+)/, "$1$2")',
      ],
    },
  }),
];
