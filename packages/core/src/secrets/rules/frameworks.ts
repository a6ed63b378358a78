import type { SecretRule } from '../types.js';
import { isPasswordArgument } from '../password-values.js';
import { rule } from './define.js';
import { R, ci, re } from './patterns.js';
import { passwordRule } from './password-rule.js';
import { B64, HEX, sample, samplePassword } from './sample.js';

/** The characters Django's `get_random_secret_key` draws from. */
const DJANGO_KEY_CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789!@#$%^&*(-_=+)';

/** Four or more words of letters joined by `-`, `_` or `.`. */
const WORDS = /^[A-Za-z]+(?:[-_.][A-Za-z]+){3,}$/;

/**
 * A whole value that is a template or a fill-in (`${SECRET_KEY}`, `{{ secret_key }}`, `<secret key>`,
 * `%SECRET%`). These rules skip the shared placeholder filter: the alphabets Django and WordPress
 * draw from hold `$(`, `<`, `{` and `*`, which it reads as placeholder marks anywhere in a value.
 */
const TEMPLATE = /^(?:\$\{[^}]*\}|\{\{.*\}\}|<[^<>]*>|%[A-Za-z_]+%|\$\([^)]*\))$/;

/** A quoted string: group `secret` in double quotes, `secret2` in single. */
const QUOTED = String.raw`(?:"(?<secret>[^"\r\n]{1,256})"|'(?<secret2>[^'\r\n]{1,256})')`;

/**
 * The default a settings file falls back to when the environment has no value:
 * `os.environ.get("SECRET_KEY", "…")`, `os.getenv("SECRET_KEY", "…")`, `env("SECRET_KEY", default="…")`,
 * `config("SECRET_KEY", default="…")`.
 */
const FALLBACK = String.raw`(?:(?:os\.environ\.get|os\.getenv|env|config|env\.str)\([ \t]{0,4}["'][A-Za-z_]{1,64}["'][ \t]{0,4},[ \t]{0,4}(?:default[ \t]{0,4}=[ \t]{0,4})?)?`;

/** A string argument in code, in double or single quotes (a DN, a host, a user name). */
const ARG_STRING = String.raw`(?:"[^"\r\n]{0,256}"|'[^'\r\n]{0,256}')`;

/** An argument before the password: a string or a name (`host`, `settings.FTP_HOST`, `$mailbox`), spaces around it. */
const ARG_OR_NAME = String.raw`[ \t]{0,4}(?:${ARG_STRING}|\$?[A-Za-z_][\w.]{0,63})[ \t]{0,4}`;

/** The characters WordPress's secret-key service draws from. */
const WORDPRESS_SALT_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!@#$%^&*()-_ []{}<>~`+=,.;:/?|';

/** Web frameworks' signing secrets, and HTTP Basic passwords written into code. */
export const FRAMEWORK_RULES: readonly SecretRule[] = [
  rule({
    id: 'django-secret-key',
    family: 'web-framework',
    description: "Django or Flask signing key in code (SECRET_KEY = '…', app.config['SECRET_KEY'] = '…', app.secret_key = '…', or an environment lookup's default)",
    keywords: ['SECRET_KEY', 'secret_key'],
    keywordsMatchCase: true,
    // (any characters but quotes and spaces: Django's own keys hold ( ) ! # and %, which a generic value stops at)
    pattern: re(
      String.raw`(?:(?<![A-Za-z0-9_])SECRET_KEY(?:["']\])?|(?<=(?<![A-Za-z0-9_])app\.)secret_key)[ \t]{0,8}=[ \t]{0,8}`,
      FALLBACK,
      String.raw`(?:"(?<secret>[^"\s\\]{32,128})"|'(?<secret2>[^'\s\\]{32,128})')`,
    ),
    secretGroup: 'secret',
    minEntropy: 3.5,
    allowPlaceholders: true,
    // (words joined by dashes or underscores are an instruction, not a key: `change-me-to-a-long-random-string`)
    validate: (s) => !WORDS.test(s) && !TEMPLATE.test(s),
    examples: {
      truePositives: [
        `SECRET_KEY = '${sample(DJANGO_KEY_CHARS, 50, 'dj1')}'`,
        `SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "django-insecure-${sample(DJANGO_KEY_CHARS, 50, 'dj2')}")`,
        `app.config['SECRET_KEY'] = '${sample(HEX, 48, 'fl1')}'`,
        `app.secret_key = "${sample(DJANGO_KEY_CHARS, 40, 'fl2')}"`,
      ],
      falsePositives: [
        "SECRET_KEY = os.environ['DJANGO_SECRET_KEY']",
        "SECRET_KEY = env('SECRET_KEY')",
        "SECRET_KEY = 'change-me-to-a-long-random-string-in-production'",
        "SECRET_KEY = '<your-secret-key-of-50-characters-goes-right-here>'",
        'AWS_SECRET_KEY = os.getenv("AWS_SECRET_KEY")',
        `app.secret_key = os.urandom(24)`,
        "SECRET_KEY = '{{ django_secret_key_from_the_vault_of_this_env }}'",
      ],
    },
  }),
  rule({
    id: 'rails-secret-key-base',
    family: 'web-framework',
    description: 'Rails secret_key_base (64 to 256 hex) in config/secrets.yml, credentials or the environment',
    keywords: ['secret_key_base'],
    pattern: re(`${ci('secret_key_base')}[ \\t]{0,8}(?::|=>?)[ \\t]{0,8}["']?`, '(?<secret>[0-9a-fA-F]{64,256})', R),
    secretGroup: 'secret',
    minEntropy: 3,
    examples: {
      truePositives: [
        `production:\n  secret_key_base: ${sample(HEX, 128, 'rb1')}`,
        `SECRET_KEY_BASE=${sample(HEX, 128, 'rb2')} bin/rails server`,
        `config.secret_key_base = "${sample(HEX, 64, 'rb3')}"`,
      ],
      falsePositives: ['secret_key_base: <%= ENV["SECRET_KEY_BASE"] %>', `secret_key_base: ${'0'.repeat(128)}`, 'SECRET_KEY_BASE=$(bin/rails secret)'],
    },
  }),
  passwordRule({
    id: 'basic-auth-pair',
    family: 'http-authorization',
    description: "Password of an HTTP Basic or Digest pair written into code (requests auth=('user', 'PASS'), HTTPBasicAuth('user', 'PASS'), aiohttp BasicAuth, httpx DigestAuth)",
    keywords: ['auth=(', 'auth = (', 'basicauth(', 'digestauth('],
    before: String.raw`(?:(?<![A-Za-z0-9_])auth[ \t]{0,4}=[ \t]{0,4}\(|(?<=(?<![A-Za-z0-9_])(?:HTTP|aiohttp\.|httpx\.)?)(?:Basic|Digest)Auth\()[ \t]{0,4}(?:login[ \t]{0,4}=[ \t]{0,4})?(?:"[^"\r\n]{1,128}"|'[^'\r\n]{1,128}')[ \t]{0,4},[ \t]{0,4}(?:password[ \t]{0,4}=[ \t]{0,4})?`,
    value: QUOTED,
    validate: isPasswordArgument,
    examples: {
      truePositives: [
        `requests.get("https://ci.internal/api/json", auth=("deploy", "${samplePassword('ba1')}"))`,
        `session.auth = ('svc_backup', '${samplePassword('ba2')}')`,
        `r = requests.post(url, json=body, auth=HTTPBasicAuth('admin', '${samplePassword('ba3')}'))`,
        `aiohttp.BasicAuth(login="ops", password="${samplePassword('ba4')}")`,
      ],
      falsePositives: [
        'requests.get(url, auth=(user, password))',
        'requests.get(url, auth=("user", os.environ["API_PASSWORD"]))',
        "auth=HTTPBasicAuth('user', 'password')",
        "auth=('admin', '<password>')",
        'auth = (username, getpass.getpass())',
      ],
    },
  }),
  passwordRule({
    id: 'signing-call-secret',
    family: 'web-framework',
    description: "Signing secret written into a JWT or HMAC call in code (jsonwebtoken's jwt.sign(payload, 'SECRET'), PyJWT's jwt.encode(payload, \"SECRET\"), Node's crypto.createHmac('sha256', 'SECRET'), Python's hmac.new(b\"SECRET\", …))",
    // (createHmac at `hmac(`: `cr` and `crea` begin much code, which the scan's first filter would pass)
    keywords: ['jwt.sign(', 'jwt.encode(', 'hmac(', 'hmac.new('],
    before:
      '(?:' +
      [
        // jwt.sign(payload, 'SECRET', …): the first quoted argument right after a comma
        String.raw`(?<![\w$])jwt\.(?:sign|encode)\([^;\r\n]{1,200}?,[ \t]{0,4}(?:key[ \t]{0,4}=[ \t]{0,4})?`,
        // createHmac('sha256', 'SECRET')
        String.raw`(?<=(?<![\w$])create)Hmac\([ \t]{0,4}["'][\w-]{2,16}["'][ \t]{0,4},[ \t]{0,4}`,
        // hmac.new(b"SECRET", msg, hashlib.sha256)
        String.raw`(?<![\w$])hmac\.new\([ \t]{0,4}(?:key[ \t]{0,4}=[ \t]{0,4})?[bB]?(?=["'])`,
      ].join('|') +
      ')',
    value: QUOTED,
    // (eight characters or more: a short string there is more often an array's element or a time's part)
    validate: (v) => v.length >= 8 && isPasswordArgument(v),
    examples: {
      truePositives: [
        `const token = jwt.sign({ sub: user.id }, '${samplePassword('sg1')}', { expiresIn: '1h' });`,
        `token = jwt.encode({"sub": user_id}, "${samplePassword('sg2')}", algorithm="HS256")`,
        `const sig = crypto.createHmac('sha256', '${samplePassword('sg3')}').update(body).digest('hex');`,
        `sig = hmac.new(b"${samplePassword('sg4')}", body, hashlib.sha256).hexdigest()`,
      ],
      falsePositives: [
        'const token = jwt.sign({ sub: user.id }, process.env.JWT_SECRET, { expiresIn: "1h" });',
        'token = jwt.encode(payload, settings.SECRET_KEY, algorithm="HS256")',
        "const sig = crypto.createHmac('sha256', secret).update(body).digest('hex');",
        "jwt.sign(payload, 'secret')",
        "jwt.sign(payload, 'your-256-bit-secret')",
        "jwt.sign({ roles: ['admin', 'reader'] }, key)",
      ],
    },
  }),
  passwordRule({
    id: 'encoded-basic-pair',
    family: 'http-authorization',
    description: "Password of a user:password pair base64-encoded in code for a Basic header (btoa('user:PASS'), Buffer.from('user:PASS'), base64.b64encode(b\"user:PASS\"))",
    // (Buffer.from at `r.from(`: `bu` and `buff` begin much code)
    keywords: ['btoa(', 'r.from(', 'b64encode('],
    // (pre-filters outside the detector take a quoted first argument: `Buffer.from(` alone passes much code)
    prefilter: String.raw`(?:btoa|Buffer\.from|b64encode)\([ \t]{0,4}[bB]?["'\x60]`,
    before: String.raw`(?:(?<![\w$])(?:btoa|b64encode)|(?<=(?<![\w$])Buffe)r\.from)\([ \t]{0,4}[bB]?(?<q>["'\x60])[^"'\x60:\s]{1,64}:`,
    value: String.raw`(?<secret>[^"'\x60\s]{1,128})\k<q>`,
    // (eight characters or more: a short string there is more often an array's element or a time's part)
    validate: (v) => v.length >= 8 && isPasswordArgument(v),
    examples: {
      truePositives: [
        `headers: { Authorization: 'Basic ' + btoa('admin:${samplePassword('eb1')}') }`,
        `const auth = Buffer.from('svc-reports:${samplePassword('eb2')}').toString('base64');`,
        `auth = base64.b64encode(b"admin:${samplePassword('eb3')}").decode()`,
      ],
      falsePositives: [
        "headers: { Authorization: 'Basic ' + btoa(`${user}:${pass}`) }",
        "const auth = Buffer.from('admin:password').toString('base64');",
        "Buffer.from('12:34:56').toString('hex')",
        "btoa('user:<password>')",
      ],
    },
  }),
  passwordRule({
    id: 'login-call-password',
    family: 'http-authorization',
    description: "Password passed to a client's login call in code (smtplib, imaplib, ftplib, poplib: server.login('user', 'PASS'), ftp.login(user='u', passwd='PASS'); phpseclib's $ssh->login('user', 'PASS'))",
    // (at `login(`, a start the scan has already for the credential word `login`)
    keywords: ['login('],
    before: String.raw`(?<=[\w)\]]\.|\$\w{1,64}->)login\([ \t]{0,4}(?:user[ \t]{0,4}=[ \t]{0,4})?(?:"[^"\r\n]{1,128}"|'[^'\r\n]{1,128}')[ \t]{0,4},[ \t]{0,4}(?:(?:password|passwd)[ \t]{0,4}=[ \t]{0,4})?`,
    value: QUOTED,
    validate: isPasswordArgument,
    examples: {
      truePositives: [
        `with smtplib.SMTP_SSL("smtp.acme.io", 465) as server:\n    server.login("alerts@acme.io", "${samplePassword('lg1')}")`,
        `ftp = FTP("files.internal")\nftp.login(user="deploy", passwd='${samplePassword('lg2')}')`,
        `mail = imaplib.IMAP4_SSL("imap.acme.io"); mail.login('ops@acme.io', '${samplePassword('lg3')}')`,
        `$ssh = new SSH2('bastion.internal');\nif (!$ssh->login('deploy', '${samplePassword('lg4')}')) exit('Login failed');`,
      ],
      falsePositives: [
        'server.login(user, password)',
        'server.login("alerts@acme.io", os.environ["SMTP_PASSWORD"])',
        "server.login('user', 'password')",
        "await page.login('admin', '<password>')",
      ],
    },
  }),
  passwordRule({
    id: 'connect-call-password',
    family: 'sql',
    description: "Password passed by position to a database client's connect call in code (PHP's mysqli_connect('host', 'user', 'PASS'), new mysqli(…), mysql_connect(…), new PDO('mysql:…', 'user', 'PASS') and the other drivers' DSNs, Java's getConnection(url, \"user\", \"PASS\") and a DataSource's getConnection(\"user\", \"PASS\"), DriverManager.getConnection(\"jdbc:…://…\", \"user\", \"PASS\"), Sequelize's new Sequelize('db', 'user', 'PASS', …), Python's pymysql.connect('host', 'user', 'PASS') and MySQLdb.connect(…))",
    // (at `mysql` and `://`, which the scan looks for already: mysqli's name, PDO's MySQL DSN, a JDBC URL;
    // pre-filters outside the detector take the calls' names instead: `://` passes every URL)
    // (getConnection at `tConnection(`: `getc` begins much code)
    keywords: ['mysql', '://', 'sequelize(', 'pdo(', 'tconnection('],
    prefilter: String.raw`mysqli|mysql_p?connect\(|mysql(?:db)?\.connect\(|new[ \t]{1,4}\\?PDO\(|getConnection\(|Sequelize\(`,
    before:
      '(?:(?:' +
      [
        // mysqli_connect("host", "user", "PASS", …), mysqli_real_connect($link, "host", "user", "PASS"), new mysqli(…)
        String.raw`mysqli(?:_connect|_real_connect(?=\([ \t]{0,4}\$\w{1,64}[ \t]{0,4},)|(?<=\bnew[ \t]{1,4}\\?mysqli))\((?:[ \t]{0,4}\$\w{1,64}[ \t]{0,4},)?`,
        // new PDO('mysql:host=…;dbname=…', 'user', 'PASS')
        String.raw`mysql:(?<=\bnew[ \t]{1,4}\\?PDO\([ \t]{0,4}["']mysql:)[^"'\r\n]{1,256}["'][ \t]{0,4},`,
        // DriverManager.getConnection("jdbc:postgresql://db/app", "user", "PASS")
        String.raw`:\/\/(?<=\bgetConnection\([ \t]{0,4}"jdbc:[\w:]{1,40}:\/\/)[^"\s]{1,256}"[ \t]{0,4},`,
        // new PDO('pgsql:host=…', 'user', 'PASS'), and the other drivers' DSNs
        String.raw`(?<=(?<![\w$])new[ \t]{1,4}\\?)PDO\([ \t]{0,4}["'](?:pgsql|sqlsrv|oci|odbc|dblib|firebird|ibm|informix|cubrid):[^"'\r\n]{1,256}["'][ \t]{0,4},`,
        // getConnection(DB_URL, "user", "PASS"), a DataSource's getConnection("user", "PASS")
        String.raw`(?<=(?<![\w$])ge)tConnection\((?:[ \t]{0,4}[A-Za-z_][\w.]{0,63}[ \t]{0,4},)?`,
      ].join('|') +
      ')' +
      // (the host's and then the user's string, for mysqli; the user's, for the others)
      String.raw`(?:[ \t]{0,4}(?:"[^"\r\n]{0,128}"|'[^'\r\n]{0,128}')[ \t]{0,4},){1,2}[ \t]{0,4}` +
      // the calls whose password is always the third argument, after two strings (a line break
      // between arguments, as formatters write a long call): the database's (or host's) and the user's
      String.raw`|(?:(?<=(?<![\w$.])new[ \t]{1,4})Sequelize\(|(?<![\w$.>])mysql_p?connect\(|(?:(?<=(?<![\w$.])py)mysql|(?<![\w$.])MySQLdb)\.connect\()` +
      String.raw`(?:[ \t\r\n]{0,12}(?:"[^"\r\n]{0,128}"|'[^'\r\n]{0,128}')[ \t]{0,4},){2}[ \t\r\n]{0,12})`,
    value: QUOTED,
    validate: isPasswordArgument,
    examples: {
      truePositives: [
        `$conn = mysqli_connect("localhost", "root", "${samplePassword('cc1')}", "shop");`,
        `$db = new mysqli('db.internal', 'wp', '${samplePassword('cc2')}', 'wordpress');`,
        `mysqli_real_connect($link, "db", "app", "${samplePassword('cc3')}");`,
        `$pdo = new PDO('mysql:host=db;dbname=app;charset=utf8mb4', 'app', '${samplePassword('cc4')}');`,
        `Connection conn = DriverManager.getConnection("jdbc:postgresql://db:5432/app", "app", "${samplePassword('cc5')}");`,
        `const sequelize = new Sequelize('shop', 'shop_app', '${samplePassword('cc6')}', { host: 'db.internal', dialect: 'postgres' });`,
        `const sequelize = new Sequelize(\n  "analytics",\n  "etl",\n  "${samplePassword('cc7')}",\n  { dialect: "mysql" }\n);`,
        `db = pymysql.connect('db.internal', 'report', '${samplePassword('cc8')}', 'sales')`,
        `db = MySQLdb.connect("localhost", "testuser", "${samplePassword('cc9')}", "TESTDB")`,
        `$link = mysql_connect('localhost', 'wp', '${samplePassword('cc10')}');`,
        `$pdo = new PDO("pgsql:host=db.internal;dbname=app", "app", "${samplePassword('cc11')}");`,
        `Connection c = DriverManager.getConnection(DB_URL, "report", "${samplePassword('cc12')}");`,
        `try (Connection c = dataSource.getConnection("sa", "${samplePassword('cc13')}")) {`,
      ],
      falsePositives: [
        '$conn = mysqli_connect($host, $user, $password, $db);',
        "$conn = mysqli_connect('localhost', 'root', '', 'shop');",
        "$db = new mysqli('localhost', 'root', 'password', 'test');",
        "$pdo = new PDO('mysql:host=db;dbname=app', $user, getenv('DB_PASSWORD'));",
        'Connection conn = DriverManager.getConnection("jdbc:postgresql://db:5432/app", user, password);',
        'Connection conn = DriverManager.getConnection("jdbc:mysql://db/app", "app", "<password>");',
        "mysqli_query($conn, 'SELECT 1', 'ignored');",
        'DATABASE_URL=mysql://db.internal:3306/app',
        "const sequelize = new Sequelize('shop', 'shop_app', process.env.DB_PASSWORD, { dialect: 'postgres' });",
        "const sequelize = new Sequelize('sqlite::memory:');",
        "const sequelize = new Sequelize('shop', 'shop_app', null, { dialect: 'postgres' });",
        'db = pymysql.connect(host, user, password, database)',
        "db = MySQLdb.connect('localhost', 'root', 'password', 'test')",
        "cursor = pymysql.connect('localhost', 'root', '<password>', 'shop')",
        '$pdo = new PDO("pgsql:host=db;dbname=app", $user, $password);',
        'Connection c = DriverManager.getConnection(DB_URL, USER, PASS);',
        'Connection c = pool.getConnection("default", "readonly");',
        "$conn = oci_connect('scott', getenv('ORA_PASSWORD'), 'db/ORCL');",
      ],
    },
  }),
  passwordRule({
    id: 'ldap-bind-password',
    family: 'ldap',
    description: "LDAP bind password written into code (PHP's ldap_bind($conn, 'DN', 'PASS'), python-ldap's simple_bind_s('DN', 'PASS'), JNDI's Context.SECURITY_CREDENTIALS)",
    // (each at a part of its name that begins a keyword already, or a rare one, the rest read back:
    // `simp`, `secu` begin much code and prose, which the scan's first filter would pass)
    keywords: ['ldap_bind(', '_bind', 'CREDENTIALS'],
    before:
      '(?:' +
      [
        // ldap_bind($conn, 'cn=admin,dc=corp', 'PASS'), ldap_bind($conn, $dn, 'PASS')
        String.raw`(?<![\w$>:])ldap_bind\([ \t]{0,4}\$\w{1,64}[ \t]{0,4},[ \t]{0,4}(?:\$\w{1,64}|${ARG_STRING})[ \t]{0,4},`,
        // conn.simple_bind_s('cn=admin,dc=corp', 'PASS'), conn.bind_s(who, 'PASS', ldap.AUTH_SIMPLE)
        String.raw`(?<=[\w)\]]\.simple)_bind(?:_s)?\([ \t]{0,4}(?:who[ \t]{0,4}=[ \t]{0,4})?(?:[A-Za-z_][\w.]{0,63}|${ARG_STRING})[ \t]{0,4},[ \t]{0,4}(?:cred[ \t]{0,4}=[ \t]{0,4})?`,
        // env.put(Context.SECURITY_CREDENTIALS, "PASS")
        String.raw`(?<=(?<![\w$])Context\.SECURITY_)CREDENTIALS[ \t]{0,4},`,
      ].join('|') +
      ')[ \\t]{0,4}',
    value: QUOTED,
    validate: isPasswordArgument,
    examples: {
      truePositives: [
        `$ldap = ldap_connect('ldaps://ldap.corp.internal');\nif (!ldap_bind($ldap, 'cn=admin,dc=corp,dc=internal', '${samplePassword('lb1')}')) die('bind failed');`,
        `ldap_bind($ds, $binddn, "${samplePassword('lb2')}");`,
        `conn = ldap.initialize("ldap://ldap.internal")\nconn.simple_bind_s("uid=svc_sync,ou=services,dc=corp", "${samplePassword('lb3')}")`,
        `env.put(Context.SECURITY_PRINCIPAL, "cn=admin,dc=corp");\nenv.put(Context.SECURITY_CREDENTIALS, "${samplePassword('lb5')}");`,
      ],
      falsePositives: [
        'ldap_bind($ldap, $dn, $password);',
        "ldap_bind($ldap, 'cn=admin,dc=corp', getenv('LDAP_PASSWORD'));",
        'conn.simple_bind_s(dn, os.environ["LDAP_PASSWORD"])',
        "client.bind('cn=root', 'secret', cb);",
        'env.put(Context.SECURITY_CREDENTIALS, password);',
        'const handler = this.onClick.bind(this, "cn=menu");',
        "ldap_bind($ldap, 'cn=admin,dc=example,dc=org', '<password>');",
      ],
    },
  }),
  passwordRule({
    id: 'client-credential-password',
    family: 'client-login',
    description: "Password passed by position to a client's constructor or login function in code (Python's ftplib FTP(host, 'user', 'PASS') and FTP_TLS, Django's create_superuser('name', 'email', 'PASS'); .NET's new NetworkCredential(\"user\", \"PASS\"); Java's new PasswordAuthentication(\"user\", \"PASS\".toCharArray()); Go's smtp.PlainAuth(\"\", \"user\", \"PASS\", host) and ssh.Password(\"PASS\"); a Redis client's auth('PASS'); paramiko's client.connect('host', 22, 'user', 'PASS') and Transport's connect(None, 'user', 'PASS'))",
    // (Python's class and .NET's and Java's are written in one case: other spellings are other names)
    // (each at a part of its name that begins a keyword already, or a rare one: every new start of a keyword lets the
    // scan's first filter pass more text; NetworkCredential at `Credential(`, PlainAuth at `Auth(`, ssh.Password at
    // `Password(`, create_superuser at `te_superuser(`)
    // (paramiko's at `connect(`: `co` begins keywords already)
    keywords: ['FTP(', 'FTP_TLS(', 'Credential(', 'PasswordAuthentication(', 'te_superuser(', 'Auth(', 'Password(', 'auth(', 'connect('],
    keywordsMatchCase: true,
    before:
      '(?:' +
      [
        // FTP('ftp.corp', 'deploy', 'PASS'), ftplib.FTP_TLS(host, user='deploy', passwd='PASS')
        String.raw`(?<![\w$])FTP(?:_TLS)?\([ \t]{0,4}(?:host[ \t]{0,4}=[ \t]{0,4})?(?:[A-Za-z_][\w.]{0,63}|${ARG_STRING})[ \t]{0,4},[ \t]{0,4}(?:user[ \t]{0,4}=[ \t]{0,4})?(?:[A-Za-z_][\w.]{0,63}|${ARG_STRING})[ \t]{0,4},[ \t]{0,4}(?:passwd[ \t]{0,4}=[ \t]{0,4})?`,
        // new NetworkCredential("svc", "PASS"), new PasswordAuthentication("svc", "PASS".toCharArray())
        String.raw`(?:(?<=(?<![\w$.])new[ \t]{1,4}(?:System\.Net\.)?Network)Credential|(?<=(?<![\w$.])new[ \t]{1,4}(?:java\.net\.)?)PasswordAuthentication)\([ \t]{0,4}(?:@?"[^"\r\n]{0,128}"|[A-Za-z_][\w.]{0,63})[ \t]{0,4},[ \t]{0,4}`,
        // the third argument: Django's create_superuser('name', 'email', 'PASS')
        String.raw`(?<=\.crea)te_superuser\(${ARG_OR_NAME},${ARG_OR_NAME},[ \t]{0,4}`,
        // the third of four: Go's smtp.PlainAuth("", "user", "PASS", "host")
        String.raw`(?<=smtp\.Plain)Auth\(${ARG_OR_NAME},${ARG_OR_NAME},[ \t]{0,4}`,
        // the only one: Go's ssh.Password("PASS"), a Redis client's auth('PASS') (redis.auth, $redis->auth, redisClient.auth)
        String.raw`(?<=(?<![\w$])ssh\.)Password\([ \t]{0,4}|(?<=[Rr]edis\w{0,32}(?:\.|->))auth\([ \t]{0,4}`,
        // paramiko's SSHClient.connect('host', 22, 'user', 'PASS'): the fourth, after a port (digits or a name
        // that says port); Transport.connect(None, 'user', 'PASS'): the third, after no host key
        String.raw`(?<=[\w)\]]\.)connect\((?:${ARG_OR_NAME},[ \t]{0,4}(?:\d{1,5}|[\w.]{0,40}(?:port|PORT|Port)\w{0,20})[ \t]{0,4}|[ \t]{0,4}None[ \t]{0,4}),${ARG_OR_NAME},[ \t]{0,4}(?:password[ \t]{0,4}=[ \t]{0,4})?`,
      ].join('|') +
      ')',
    value: QUOTED,
    // (an anonymous FTP login's password is an e-mail address by convention, no secret)
    validate: (secret, match) => !/^\w{0,24}\(.{0,300}["']anonymous["']/.test(match[0]) && isPasswordArgument(secret),
    examples: {
      truePositives: [
        `from ftplib import FTP\nftp = FTP('ftp.corp.internal', 'deploy', '${samplePassword('fc1')}')\nftp.cwd('/www')`,
        `with ftplib.FTP_TLS(host, user="backup", passwd="${samplePassword('fc2')}") as ftp:`,
        `client.Credentials = new NetworkCredential("svc_mail", "${samplePassword('fc4')}");`,
        `return new PasswordAuthentication("proxyuser", "${samplePassword('fc5')}".toCharArray());`,
        `User.objects.create_superuser('admin', 'admin@acme.io', '${samplePassword('fc9')}')`,
        `auth := smtp.PlainAuth("", "alerts@acme.io", "${samplePassword('fc11')}", "smtp.acme.io")`,
        `Auth: []ssh.AuthMethod{ssh.Password("${samplePassword('fc12')}")},`,
        `await redis.auth('${samplePassword('fc13')}');`,
        `client = paramiko.SSHClient()\nclient.set_missing_host_key_policy(paramiko.AutoAddPolicy())\nclient.connect("bastion.internal", 22, "deploy", "${samplePassword('fc14')}")`,
        `paramiko.SSHClient().connect('10.0.4.12', 2222, 'backup', '${samplePassword('fc15')}')`,
        `ssh.connect(hostname, port, username, "${samplePassword('fc16')}")`,
        `ssh.connect(host, self.ssh_port, user, password='${samplePassword('fc17')}')`,
        `t = paramiko.Transport(("sftp.internal", 22))\nt.connect(None, "uploader", "${samplePassword('fc18')}")`,
      ],
      falsePositives: [
        'ftp = FTP(host, user, passwd)',
        "ftp = FTP('ftp.corp.internal')",
        "ftp_login($conn, $user, getenv('FTP_PASSWORD'));",
        'client.Credentials = new NetworkCredential(user, password);',
        'client.Credentials = new NetworkCredential("user", "password");',
        'return new PasswordAuthentication(user, pass.toCharArray());',
        "ftp = FTP('ftp.example.com', 'anonymous', 'anonymous@')",
        "User.objects.create_user('alice', 'alice@example.com', password)",
        "User.objects.create_superuser('admin', 'admin@example.com', 'password')",
        'keyring.set_password(service, user, getpass.getpass())',
        'auth := smtp.PlainAuth("", from, os.Getenv("SMTP_PASSWORD"), host)',
        'ssh.Password(password)',
        'await redis.auth(process.env.REDIS_PASSWORD);',
        "passport.authenticate('local'); client.auth('token-abc')",
        'client.connect(hostname, port, username, password)',
        'client.connect(host, 22, user, os.environ["SSH_PASSWORD"])',
        "client.connect('bastion.internal', 22, 'deploy', 'password')",
        "client.connect('bastion.internal', port=22, username='deploy', key_filename='~/.ssh/id_ed25519')",
        "db = pymysql.connect('db.internal', 'report', 'reporting', 'sales')",
        "sock.connect(('10.0.0.5', 8080))",
        "emitter.connect(this, 'changed', 'onChanged', 'queued')",
      ],
    },
  }),
  rule({
    id: 'laravel-app-key',
    family: 'web-framework',
    description: 'Laravel application encryption key (APP_KEY=base64:…, 32 bytes)',
    keywords: ['APP_KEY'],
    keywordsMatchCase: true,
    pattern: re(String.raw`(?<![A-Za-z0-9_])APP_KEY[ \t]{0,4}(?:=|:|=>)[ \t]{0,4}["']?base64:`, '(?<secret>[A-Za-z0-9+/]{43}=)', String.raw`(?![A-Za-z0-9+/=])`),
    secretGroup: 'secret',
    minEntropy: 3.5,
    examples: {
      truePositives: [`APP_ENV=production\nAPP_KEY=base64:${Buffer.from(sample(B64, 32, 'lv1'), 'latin1').toString('base64')}\nAPP_DEBUG=false`, `'key' => env('APP_KEY'), // APP_KEY: "base64:${Buffer.from(sample(B64, 32, 'lv2'), 'latin1').toString('base64')}"`],
      falsePositives: ['APP_KEY=', 'APP_KEY=base64:', `APP_KEY=base64:${'A'.repeat(43)}=`],
    },
  }),
  rule({
    id: 'wordpress-auth-salt',
    family: 'web-framework',
    description: "WordPress authentication key or salt in wp-config.php (define('AUTH_KEY', '…'), SECURE_AUTH_KEY, LOGGED_IN_KEY, NONCE_KEY and their _SALT twins)",
    keywords: ['AUTH_KEY', 'LOGGED_IN_KEY', 'NONCE_KEY', 'AUTH_SALT', 'LOGGED_IN_SALT', 'NONCE_SALT'],
    keywordsMatchCase: true,
    // (the characters the key service draws include quotes' neighbours and spaces: only the quote ends one)
    pattern: re(
      String.raw`(?<=define\([ \t]{0,4}['"](?:SECURE_)?)(?:AUTH|LOGGED_IN|NONCE)_(?:KEY|SALT)['"][ \t]{0,4},[ \t]{0,16}`,
      String.raw`(?:'(?<secret>[^'\\\r\n]{32,128})'|"(?<secret2>[^"\\\r\n]{32,128})")`,
    ),
    secretGroup: 'secret',
    minEntropy: 4,
    allowPlaceholders: true,
    validate: (s) => !/unique phrase/i.test(s) && !TEMPLATE.test(s),
    examples: {
      truePositives: [
        `define( 'AUTH_KEY',         '${sample(WORDPRESS_SALT_CHARS.replace(/[\\'"]/g, ''), 64, 'wp1')}' );`,
        `define('SECURE_AUTH_SALT', '${sample(WORDPRESS_SALT_CHARS.replace(/[\\'"]/g, ''), 64, 'wp2')}');`,
      ],
      falsePositives: [
        "define( 'AUTH_KEY', 'put your unique phrase here' );",
        "define('NONCE_SALT', getenv('WP_NONCE_SALT'));",
        "define( 'LOGGED_IN_KEY', '' );",
        "define('AUTH_KEY', '<generated by https://api.wordpress.org/secret-key/1.1/salt/>');",
      ],
    },
  }),
];
