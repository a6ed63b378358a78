import type { SecretRule } from '../types.js';
import { isPasswordArgument } from '../password-values.js';
import { AFTER_JSON_ESCAPE, ci } from './patterns.js';
import { passwordRule } from './password-rule.js';
import { rule } from './define.js';
import { samplePassword } from './sample.js';

const pw = samplePassword;

/**
 * The rest of one command after its program name, up to the flag: no line break and no `;`, `|`
 * or `&`, which start another command (`mysql … | grep -P x`).
 */
const SAME_COMMAND = String.raw`(?:[ \t][^\r\n;|&]{0,240}?)?[ \t]`;

/**
 * Program names begin a word of a command line (`/usr/bin/mysql`, `sudo mysql`), not one of a
 * name (`my-mysql`, `run.mysql`); or a line after a JSON escape (`"A=1\nredis-cli …"`), which the
 * detector's decoding windows open only right before a keyword, and a name read back lies before it.
 */
const PROGRAM_START = `(?:${AFTER_JSON_ESCAPE}|(?<![\\w.-]))`;

/**
 * The password flag of each program, after its name: the flag's meaning is the program's
 * (`-p` is a port for `docker run` and `ssh`, a patch for `git log`, parents for `mkdir`).
 * - mysql, mysqldump, mariadb, …: `-pPASS` glued (`-p` alone prompts, `-p db` names the database);
 * - docker login, mongo / mongosh and MongoDB's tools (mongodump, mongorestore, mongoexport,
 *   mongoimport, mongostat, mongotop, mongofiles): `-p PASS`; sshpass: `-p PASS` or `-pPASS`;
 * - redis-cli: `-a PASS`; sqlcmd, osql, bcp and Sybase isql: `-P PASS` or `-PPASS`; zip, unzip:
 *   `-P PASS`; 7z: `-pPASS`;
 * - smbclient, rpcclient: `-U user%PASS`, `--user=user%PASS`;
 * - ssh-keygen: `-N PASS` (the new passphrase), `-P PASS` (the old one); Windows `net use … /user:NAME PASS`;
 * - OpenLDAP's tools (ldapsearch, ldapadd, ldapmodify, ldapdelete, ldappasswd, …): `-w PASS`, the bind password (`-W` prompts).
 * (`--password PASS` is cli-user-password's, for every program.)
 * Each branch starts at its keyword; where the keyword is the end of the program's name or a
 * later word, the rest is read back (`re` of `redis-cli`): keywords that begin with common
 * letters (`doc`, `red`, `sm`) let the scan's first filter pass more ordinary text.
 */
const PROGRAM_FLAGS = [
  String.raw`${PROGRAM_START}(?:mysql(?:dump|admin|import|check|slap|show|binlog)?|mariadb(?:-?(?:dump|admin|import|check|slap|show|binlog))?)(?:\.exe)?${SAME_COMMAND}-p`,
  String.raw`(?<=${PROGRAM_START}docker(?:\.exe)?[ \t]{1,4})login${SAME_COMMAND}-p[ \t]{1,4}`,
  String.raw`${PROGRAM_START}mongo(?:sh|dump|restore|export|import|stat|top|files)?(?:\.exe)?${SAME_COMMAND}-p[ \t]{1,4}`,
  String.raw`${PROGRAM_START}sshpass${SAME_COMMAND}-p[ \t]{0,4}`,
  String.raw`(?<=${PROGRAM_START}re)dis-cli(?:\.exe)?${SAME_COMMAND}-a[ \t]{1,4}`,
  String.raw`${PROGRAM_START}(?:sqlcmd|osql|isql|bcp)(?:\.exe)?${SAME_COMMAND}-P[ \t]{0,4}`,
  String.raw`(?<=${PROGRAM_START}(?:un)?)zip${SAME_COMMAND}-P[ \t]{1,4}`,
  String.raw`${PROGRAM_START}7za?${SAME_COMMAND}-p`,
  String.raw`(?:(?<=${PROGRAM_START}s)mb|${PROGRAM_START}rpc)client${SAME_COMMAND}(?:-U[ \t]{0,4}|--user=)["']?[^\s%"';|&]{1,128}%`,
  String.raw`${PROGRAM_START}ssh-keygen(?:\.exe)?${SAME_COMMAND}-[NP][ \t]{1,4}`,
  String.raw`(?<=${PROGRAM_START})net[ \t]{1,4}use[ \t][^\r\n;|&]{0,200}?/user:[^\s"']{1,128}[ \t]{1,4}(?![/*])`,  String.raw`${PROGRAM_START}ldap(?:search|add|modify|delete|passwd|whoami|compare|modrdn|exop)(?:\.exe)?${SAME_COMMAND}-w[ \t]{0,4}`,
];

/** Passwords in command lines and tools' own flags. */
export const COMMAND_LINE_RULES: readonly SecretRule[] = [
  passwordRule({
    id: 'cli-password-flag',
    family: 'command-line',
    description: 'Password after a program\'s own password flag (mysql -pPASS, docker login -p, sshpass -p, redis-cli -a, mongosh and mongodump -p, sqlcmd, osql and bcp -P, zip -P, 7z -p, smbclient and rpcclient -U user%PASS, ssh-keygen -N, net use /user:NAME PASS, ldapsearch and the other OpenLDAP tools -w)',
    keywords: [
      'mysql', 'mariadb', 'login ', 'mongo ', 'mongosh', 'mongodump', 'mongorestore', 'mongoexport', 'mongoimport', 'mongostat', 'mongotop', 'mongofiles',
      'sshpass', 'dis-cli', 'sqlcmd', 'osql', 'isql', 'bcp ', 'zip ', '7z a', '7z x', '7z e', '7za ', 'mbclient', 'rpcclient', 'ssh-keygen', 'net use',
      'ldapsearch', 'ldapadd', 'ldapmodify', 'ldapdelete', 'ldappasswd', 'ldapwhoami', 'ldapcompare', 'ldapmodrdn', 'ldapexop',
    ],
    before: `(?:${PROGRAM_FLAGS.join('|')})`,
    examples: {
      truePositives: [
        `mysql -h db.internal -uroot -p${pw('m1')} app`,
        `mysqldump -u backup -p'${pw('m2')}' --single-transaction shop > shop.sql`,
        `mariadb -p"${pw('m3')}" -e "show databases"`,
        `echo done && docker login -u ci -p ${pw('d1')} registry.internal`,
        `sshpass -p '${pw('s1')}' ssh deploy@10.0.0.5 uptime`,
        `redis-cli -h cache -a ${pw('r1')} --no-auth-warning ping`,
        `mongosh "mongodb://db:27017/app" -u admin -p ${pw('o1')}`,
        `sqlcmd -S tcp:sql.internal,1433 -U sa -P ${pw('q1')} -Q "SELECT 1"`,
        `zip -r -P ${pw('z1')} backup.zip ./data`,
        `7z a -p${pw('z2')} -mhe=on secrets.7z ./keys`,
        `smbclient //files/share -U svc_backup%${pw('b1')} -c ls`,
        `/usr/bin/mysql --host=db -p${pw('m4')}`,
        `mongodump --host db.internal -u backup -p ${pw('o2')} --out /backups/$(date +%F)`,
        `mongorestore -u admin -p '${pw('o3')}' --drop dump/`,
        `osql -S legacy-sql -U sa -P ${pw('q2')} -Q "EXEC sp_who"`,
        `bcp Sales.dbo.Orders out orders.dat -S sql.internal -U etl -P${pw('q3')} -c`,
        `isql -S SYBASE01 -U sa -P ${pw('q4')} -i setup.sql`,
        `rpcclient -U 'admin%${pw('b2')}' 10.0.0.12 -c enumdomusers`,
        `ssh-keygen -t ed25519 -N '${pw('k4')}' -f ~/.ssh/deploy_key`,
        `net use Z: \\\\files\\share /user:CORP\\svc_backup ${pw('n5')} /persistent:no`,
        `ldapsearch -x -H ldaps://ldap.internal -D "cn=admin,dc=corp,dc=internal" -w ${pw('l1')} -b "dc=corp,dc=internal" "(uid=jdoe)"`,
        `ldapmodify -x -D cn=admin,dc=corp -w '${pw('l2')}' -f change.ldif`,
      ],
      falsePositives: [
        'mysql -u root -p app_db',
        'mysql -uroot -p -h db.internal',
        'mysql -uroot -p$MYSQL_PWD app',
        'mysql -uroot -p"${MYSQL_ROOT_PASSWORD}" app',
        'mysqldump -u app -p"$DB_PASSWORD" shop',
        'mariadb -p<password> -e "select 1"',
        'mysql -uroot -p**** app',
        'mysql -uroot -pchangeme app',
        'echo "$TOKEN" | docker login -u ci --password-stdin registry.internal',
        'docker run -p 8080:80 -p 443:443 nginx',
        'ssh -p 22 deploy@10.0.0.5 && git log -p && mkdir -p ./build && grep -P "\\d+" log.txt',
        'sshpass -e ssh deploy@host',
        'redis-cli -a "$REDIS_PASSWORD" ping',
        'mongosh -u admin -p --authenticationDatabase admin',
        'zip -P <password> out.zip file',
        '-p[password], --password[=password]  The password to use when connecting to the server (mysql).',
        'mysql | grep -P "pattern"',
        '7z a -p{Password} archive.7z',
        'mongodump -u backup -p "$MONGO_PASSWORD" --out /backups',
        'bcp Sales.dbo.Orders out orders.dat -S sql.internal -T -c -t,',
        'isql -v mydsn',
        'rpcclient -U admin 10.0.0.12',
        'osql -E -S legacy-sql -P $SQL_PASSWORD',
        "ssh-keygen -t ed25519 -N '' -f ~/.ssh/id_ed25519",
        'ssh-keygen -lf ~/.ssh/id_ed25519.pub -E sha256',
        'net use Z: \\\\files\\share /user:CORP\\svc * /persistent:yes',
        'net use Z: \\\\files\\share /user:CORP\\svc /persistent:yes',
        'ldapsearch -x -D "cn=admin,dc=corp" -W -b dc=corp',
        'ldapsearch -x -D cn=admin,dc=corp -w "$LDAP_BIND_PW" -b dc=corp',
        'ldapsearch -x -D cn=admin,dc=corp -y /run/secrets/ldap_pw -b dc=corp',
      ],
    },
  }),
  passwordRule({
    id: 'cli-password-option',
    family: 'command-line',
    description: 'Password after a password option of key tools (openssl -passin / -passout pass:PASS, keytool and jarsigner -storepass / -keypass PASS)',
    // (anchored at `pass`, a start the scan's first filter has for the generic rule already)
    keywords: ['pass:', 'pass '],
    // openssl reads `pass:` as the password itself (env:, file:, fd: and stdin name where it is);
    // keytool reads `-storepass:env` and `-storepass:file` the same way, which a space excludes
    before: String.raw`(?:(?<=(?<![\w-])-pass(?:in|out|word)?[ \t]{1,4}["']?)pass:|(?<=(?<![\w-])-(?:src|dest)?(?:store|key))pass[ \t]{1,4})`,
    examples: {
      truePositives: [
        `openssl pkcs12 -export -in cert.pem -inkey key.pem -out cert.p12 -passout pass:${pw('p1')}`,
        `openssl rsa -in enc.key -out plain.key -passin 'pass:${pw('p2')}'`,
        `openssl enc -aes-256-cbc -pbkdf2 -in db.sql -out db.enc -pass pass:"${pw('p3')}"`,
        `keytool -importcert -alias ca -file ca.crt -keystore trust.jks -storepass ${pw('k1')} -noprompt`,
        `keytool -genkeypair -alias app -keystore app.jks -storepass "${pw('k2')}" -keypass ${pw('k3')}`,
      ],
      falsePositives: [
        'openssl rsa -in enc.key -passin env:KEY_PASS -out plain.key',
        'openssl pkcs12 -in cert.p12 -passin file:/run/secrets/p12pass',
        'openssl req -passout pass:$PASSPHRASE -new',
        'keytool -list -keystore app.jks -storepass:env STORE_PASS',
        'keytool -list -keystore app.jks -storepass changeit',
        '-storepass <arg>  keystore password',
        '-passin arg  Input file pass phrase source',
      ],
    },
  }),
  passwordRule({
    id: 'powershell-plaintext-password',
    family: 'command-line',
    description: 'Password made a SecureString from plain text in PowerShell (ConvertTo-SecureString "PASS" -AsPlainText -Force)',
    keywords: ['convertto-securestring'],
    // (PowerShell's names and parameters are case-insensitive; without -AsPlainText the string is
    // DPAPI ciphertext, not a password)
    before: String.raw`(?<![\w-])${ci('convertto-securestring')}(?:[ \t]{1,4}-(?:${ci('asplaintext')}|${ci('force')}))*(?:[ \t]{1,4}-${ci('string')})?[ \t]{1,4}`,
    validate: (secret, match) =>
      (/^[^\r\n;|]{0,80}?-asplaintext/i.test(match.input.slice(match.index + match[0].length)) || /-asplaintext/i.test(match[0])) && isPasswordArgument(secret),
    examples: {
      truePositives: [
        `$pw = ConvertTo-SecureString "${pw('ps1')}" -AsPlainText -Force`,
        `$cred = New-Object System.Management.Automation.PSCredential('CORP\\svc', (ConvertTo-SecureString -String '${pw('ps2')}' -AsPlainText -Force))`,
        `convertto-securestring -asplaintext -force ${pw('ps3')}`,
      ],
      falsePositives: [
        '$pw = ConvertTo-SecureString $env:DB_PASSWORD -AsPlainText -Force',
        '$pw = ConvertTo-SecureString "$Password" -AsPlainText -Force',
        `$pw = Get-Content secure.txt | ConvertTo-SecureString`,
        `$pw = ConvertTo-SecureString "01000000d08c9ddf0115d1118c7a00c04fc297eb0100000003" -Key $key`,
        'ConvertTo-SecureString "<password>" -AsPlainText -Force',
      ],
    },
  }),
  passwordRule({
    id: 'htpasswd-password',
    family: 'command-line',
    description: 'Password given to htpasswd in batch mode (htpasswd -b FILE USER PASS, htpasswd -nb USER PASS)',
    keywords: ['passwd '],
    // (-b takes the password from the command line; -n prints instead of writing, so no file)
    before:
      String.raw`(?<=${PROGRAM_START}ht)passwd(?<flags>(?:[ \t]{1,4}-[A-Za-z]{1,8}(?:[ \t]{1,4}\d{1,3})?){1,4})[ \t]{1,4}(?<file>[^\s;|&-][^\s;|&]{0,255}[ \t]{1,4})?[^\s;|&-][^\s;|&]{0,127}[ \t]{1,4}`,
    validate: (secret, match) => {
      const flags = match.groups?.['flags'] ?? '';
      if (!/-[A-Za-z]*b/.test(flags)) return false;
      return /-[A-Za-z]*n/.test(flags) === (match.groups?.['file'] === undefined) && isPasswordArgument(secret);
    },
    examples: {
      truePositives: [
        `htpasswd -b /etc/nginx/.htpasswd admin ${pw('h1')}`,
        `htpasswd -bcB -C 12 auth/htpasswd registry '${pw('h2')}'`,
        `htpasswd -nb ops ${pw('h3')} >> users.txt`,
      ],
      falsePositives: ['htpasswd -c /etc/nginx/.htpasswd admin', 'htpasswd -b .htpasswd admin "$ADMIN_PASSWORD"', 'htpasswd -nbB user <password>'],
    },
  }),
  passwordRule({
    id: 'sudo-stdin-password',
    family: 'command-line',
    description: 'Password fed to sudo as a here-string on its standard input (sudo -S … <<< PASS)',
    // (`sudo -k -S`: the flag need not follow the name; `-s` in small letters runs a shell)
    keywords: ['sudo '],
    keywordsMatchCase: true,
    before: String.raw`(?<![\w-])sudo(?:[ \t]{1,4}-[A-Za-z]{1,8}(?:[ \t]{1,4}[\w.-]{1,64})?)*?[ \t]{1,4}(?:-S|--stdin)(?![\w-])[^\r\n;|&<]{0,200}?<<<[ \t]{0,4}`,
    examples: {
      truePositives: [`sudo -S <<< '${pw('u1')}' systemctl restart nginx`, `sudo -S -u postgres psql -c 'select 1' <<< "${pw('u2')}"`],
      falsePositives: ['sudo -S systemctl restart nginx <<< "$SUDO_PASSWORD"', 'sudo -s', 'echo "$PASSWORD" | sudo -S apt-get update'],
    },
  }),
  rule({
    id: 'sudo-piped-password',
    family: 'command-line',
    description: "Password echoed into sudo's standard input (echo PASS | sudo -S …, printf '%s\\n' PASS | sudo --stdin …)",
    keywords: ['sudo '],
    keywordsMatchCase: true,
    // (the password stands before the keyword: read back in the lookbehind, its group found by
    // indices; in a JSON string its quotes are escaped, and the command may follow a `\n`)
    pattern: new RegExp(
      String.raw`(?<=${PROGRAM_START}(?:echo(?:[ \t]{1,4}-[ne]{1,2})?|printf(?:[ \t]{1,4}(?:'%s\\{1,4}n'|\\{0,3}"%s\\{1,4}n\\{0,3}"|%s\\{1,4}n))?)[ \t]{1,4}` +
        String.raw`(?:\\{0,3}"(?<secret>[^"\\\r\n]{1,128})\\{0,3}"|'(?<secret2>[^'\r\n]{1,128})'|(?<secret3>[^\s"'|;&<>()\\-][^\s"'|;&<>()\\]{0,127}))[ \t]{0,4}\|[ \t]{0,4})` +
        String.raw`sudo(?:[ \t]{1,4}-[A-Za-z]{1,8}(?:[ \t]{1,4}[\w.-]{1,64})?)*?[ \t]{1,4}(?:-S|--stdin)(?![\w-])`,
      'g',
    ),
    secretGroup: 'secret',
    generic: true,
    validate: isPasswordArgument,
    examples: {
      truePositives: [`echo "${pw('u3')}" | sudo -S apt-get update -y`, `printf '%s\\n' '${pw('u4')}' | sudo --stdin -u deploy systemctl reload app`, `echo ${pw('u5')} | sudo -k -S rm -rf /var/cache/app`],
      falsePositives: ['echo "$SUDO_PASSWORD" | sudo -S apt-get update', 'echo "${{ secrets.SUDO_PASSWORD }}" | sudo -S true', 'echo done | sudo -s', 'cat pass.txt | sudo -S true', 'echo password | sudo -S true'],
    },
  }),
];
