import type { SecretRule } from '../types.js';
import { isPasswordArgument } from '../password-values.js';
import { PROGRAM_START, SAME_COMMAND, ci, commandChar } from './patterns.js';
import { passwordRule } from './password-rule.js';
import { rule } from './define.js';
import { namesCredential } from './keyed.js';
import { ALNUM, sample, samplePassword } from './sample.js';

const pw = samplePassword;


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
 * - twine: `-p PASS`; mosquitto_pub, _sub, _rr: `-P PASS` (`-p` is the port); `az login … -p PASS`;
 *   lftp: `-u user,PASS`; rabbitmqctl: `add_user USER PASS`, `change_password USER PASS`.
 * - openssl enc (or a cipher's name as the command): `-k PASS` (`-K` is a hex key, `-kfile` a file);
 *   openssl passwd: the password after its options; mysqladmin: `password NEWPASS`;
 *   Windows `net use \\\\server\\share PASS`, the password after the share, and `net user NAME PASS`.
 * (`--password PASS` is cli-user-password's, for every program.)
 * Each branch starts at its keyword; where the keyword is the end of the program's name or a
 * later word, the rest is read back (`re` of `redis-cli`): keywords that begin with common
 * letters (`doc`, `red`, `sm`) let the scan's first filter pass more ordinary text. `sshpass` is
 * found at `pass ` (a start the filter holds for the generic rules' `pass`), `ssh` read back: its
 * own start `sshp` took the filter from 1.90 % to 2.50 % of package text's positions.
 */
const PROGRAM_FLAGS = [
  String.raw`${PROGRAM_START}(?:mysql(?:dump|admin|import|check|slap|show|binlog)?|mariadb(?:-?(?:dump|admin|import|check|slap|show|binlog))?)(?:\.exe)?${SAME_COMMAND}-p`,
  String.raw`(?<=${PROGRAM_START}docker(?:\.exe)?[ \t]{1,4})login${SAME_COMMAND}-p[ \t]{1,4}`,
  String.raw`${PROGRAM_START}mongo(?:sh|dump|restore|export|import|stat|top|files)?(?:\.exe)?${SAME_COMMAND}-p[ \t]{1,4}`,
  String.raw`(?<=${PROGRAM_START}ssh)pass${SAME_COMMAND}-p[ \t]{0,4}`,
  String.raw`(?<=${PROGRAM_START}re)dis-cli(?:\.exe)?${SAME_COMMAND}-a[ \t]{1,4}`,
  String.raw`${PROGRAM_START}(?:sqlcmd|osql|isql|bcp)(?:\.exe)?${SAME_COMMAND}-P[ \t]{0,4}`,
  String.raw`(?<=${PROGRAM_START}(?:un)?)zip${SAME_COMMAND}-P[ \t]{1,4}`,
  String.raw`${PROGRAM_START}7za?${SAME_COMMAND}-p`,
  String.raw`(?:(?<=${PROGRAM_START}s)mb|${PROGRAM_START}rpc)client${SAME_COMMAND}(?:-U[ \t]{0,4}|--user=)["']?[^\s%"';|&]{1,128}%`,
  String.raw`${PROGRAM_START}ssh-keygen(?:\.exe)?${SAME_COMMAND}-[NP][ \t]{1,4}`,
  String.raw`(?<=${PROGRAM_START})net[ \t]{1,4}use[ \t]${commandChar()}{0,200}?/user:[^\s"']{1,128}[ \t]{1,4}(?![/*])`,
  String.raw`${PROGRAM_START}twine(?:\.exe)?${SAME_COMMAND}-p[ \t]{1,4}`,
  String.raw`${PROGRAM_START}mosquitto_(?:pub|sub|rr)(?:\.exe)?${SAME_COMMAND}-P[ \t]{1,4}`,
  String.raw`(?<=${PROGRAM_START}az(?:\.cmd)?[ \t]{1,4})login${SAME_COMMAND}-p[ \t]{1,4}`,
  String.raw`${PROGRAM_START}lftp${SAME_COMMAND}-u[ \t]{1,4}["']?[^\s,"';|&]{1,128},`,
  String.raw`${PROGRAM_START}rabbitmqctl(?:\.bat)?[ \t]{1,4}(?:-${commandChar()}{0,120}?[ \t])?(?:add_user|change_password)[ \t]{1,4}["']?[^\s"';|&]{1,128}["']?[ \t]{1,4}`,
  String.raw`${PROGRAM_START}ldap(?:search|add|modify|delete|passwd|whoami|compare|modrdn|exop)(?:\.exe)?${SAME_COMMAND}-w[ \t]{0,4}`,
  String.raw`(?<=${PROGRAM_START}ope)nssl(?:\.exe)?[ \t]{1,4}(?:enc|aes[\w-]{0,16}|aria[\w-]{0,16}|bf[\w-]{0,8}|camellia[\w-]{0,16}|cast5?[\w-]{0,8}|chacha20[\w-]{0,10}|des[\w-]{0,12}|rc[245][\w-]{0,8}|seed[\w-]{0,8}|sm4[\w-]{0,8})(?![\w-])${SAME_COMMAND}-k[ \t]{1,4}`,
  String.raw`(?<=${PROGRAM_START}ope)nssl(?:\.exe)?[ \t]{1,4}passwd(?:[ \t]{1,4}-(?:1|5|6|apr1|aixmd5|crypt|quiet|table|noverify|salt[ \t]{1,4}[^\s;|&]{1,64})){0,8}[ \t]{1,4}`,
  String.raw`${PROGRAM_START}mysqladmin(?:\.exe)?${SAME_COMMAND}password[ \t]{1,4}`,
  String.raw`(?<=${PROGRAM_START})net[ \t]{1,4}use[ \t]{1,4}(?:(?:[A-Za-z]:|\*)[ \t]{1,4})?(?:\\{2,4}[^\s"']{1,256}|"\\{2,4}[^"\r\n]{1,256}")[ \t]{1,4}(?![/*])`,
  String.raw`(?<=${PROGRAM_START})net[ \t]{1,4}user[ \t]{1,4}(?:"[^"\r\n]{1,64}"|[^\s/"';|&]{1,64})[ \t]{1,4}(?![/*])`,
];

/**
 * Where a CLI takes a credential for a secret store or its own settings, before the value: `poetry
 * config http-basic.REPO USER` or a `pypi-token.REPO` (group `setkey`, judged by the key), and the
 * value flags of secret-setting commands. Each branch starts at its keyword, a word the scan looks
 * for already where it can (`secret`, `http`, `pypi`), and reads back to its command in a
 * lookbehind (`--from-literal=` of a `kubectl create secret`: every literal of one is a secret, and
 * each is found); a branch first looks ahead at its keyword's letter, so the other branches' hits
 * skip its lookbehind.
 */
const CONFIG_SETTERS = [
  String.raw`(?=[hp])(?<=${PROGRAM_START}poetry[ \t]{1,4}config[ \t]{1,4})(?:http-basic\.[\w.-]{1,64}[ \t]{1,4}[^\s"';|&]{1,128}|(?<setkey>pypi-token\.[\w.-]{1,64}))[ \t]{1,4}`,
  String.raw`(?=s)(?<=${PROGRAM_START}gh[ \t]{1,4})secret[ \t]{1,4}set${commandChar('<')}{0,200}?[ \t](?:--body|-b)(?:[ \t]{1,4}|=)`,
  String.raw`(?=s)(?<=${PROGRAM_START}az[ \t]{1,4}keyvault[ \t]{1,4})secret[ \t]{1,4}set${commandChar()}{0,200}?[ \t]--value(?:[ \t]{1,4}|=)`,
  String.raw`(?=p)(?<=${PROGRAM_START}aws(?:\.exe)?[ \t]{1,4}(?<ssm>ssm)[ \t]{1,4})put-parameter${commandChar()}{0,200}?[ \t]--value(?:[ \t]{1,4}|=)`,
  String.raw`(?=a)(?<=${PROGRAM_START}aws(?:\.exe)?[ \t]{1,4}configure[ \t]{1,4}set[ \t]{1,4})aws_(?:secret_access_key|session_token)[ \t]{1,4}`,
  String.raw`(?=a)(?<=${PROGRAM_START}ngrok(?:\.exe)?[ \t]{1,4}(?:config[ \t]{1,4}add-)?)authtoken[ \t]{1,4}`,
  String.raw`(?=--[fd])(?<=${PROGRAM_START}kubectl(?:\.exe)?[ \t]${commandChar()}{0,40}?create[ \t]{1,4}secret[ \t]${commandChar()}{0,400}?)--(?:from-literal=["']?[\w.-]{1,128}=|docker-password(?:[ \t]{1,4}|=))`,
];

/**
 * A value `echo`ed or `printf`ed into the command that follows the pipe (groups `secret`,
 * `secret2`, `secret3`), then `then`, as a lookbehind: a rule's keyword is that command, and the password stands
 * before it (its group is found by indices). In a JSON string the quotes are escaped, and the
 * command may follow a `\n`.
 */
const ECHOED_INTO = (then = ''): string =>
  String.raw`(?<=${PROGRAM_START}(?:echo(?:[ \t]{1,4}-[ne]{1,2})?|printf(?:[ \t]{1,4}(?:'%s(?:\\{1,4}n)?'|\\{0,3}"%s(?:\\{1,4}n)?\\{0,3}"|%s\\{1,4}n))?)[ \t]{1,4}` +
  String.raw`(?:\\{0,3}"(?<secret>[^"\\\r\n]{1,128})\\{0,3}"|'(?<secret2>[^'\r\n]{1,128})'|(?<secret3>[^\s"'|;&<>()\\-][^\s"'|;&<>()\\]{0,127}))[ \t]{0,4}\|[ \t]{0,4}${then})`;

/** The line a match is on, from its start (what a flag elsewhere in the same command is looked for in). */
function lineOf(match: RegExpExecArray): string {
  const input = match.input;
  let start = match.index;
  while (start > 0 && input.charCodeAt(start - 1) !== 10) start--;
  const end = input.indexOf('\n', match.index);
  return input.slice(start, end < 0 ? input.length : end);
}

/** Passwords in command lines and tools' own flags. */
export const COMMAND_LINE_RULES: readonly SecretRule[] = [
  passwordRule({
    id: 'cli-password-flag',
    family: 'command-line',
    description: 'Password after a program\'s own password flag (mysql -pPASS, docker login -p, sshpass -p, redis-cli -a, mongosh and mongodump -p, sqlcmd, osql and bcp -P, zip -P, 7z -p, smbclient and rpcclient -U user%PASS, ssh-keygen -N, net use /user:NAME PASS, ldapsearch and the other OpenLDAP tools -w, twine -p, mosquitto_pub/sub -P, az login -p, lftp -u user,PASS, rabbitmqctl add_user/change_password USER PASS, openssl enc -k PASS, openssl passwd PASS, mysqladmin password PASS, net use \\\\server\\share PASS, net user NAME PASS)',
    keywords: [
      'mysql', 'mariadb', 'login ', 'mongo ', 'mongosh', 'mongodump', 'mongorestore', 'mongoexport', 'mongoimport', 'mongostat', 'mongotop', 'mongofiles',
      'pass ', 'pass\t', 'dis-cli', 'sqlcmd', 'osql', 'isql', 'bcp ', 'zip ', '7z a', '7z x', '7z e', '7za ', 'mbclient', 'rpcclient', 'ssh-keygen', 'net use',
      'ldapsearch', 'ldapadd', 'ldapmodify', 'ldapdelete', 'ldappasswd', 'ldapwhoami', 'ldapcompare', 'ldapmodrdn', 'ldapexop',
      'twine', 'mosquitto_', 'lftp', 'rabbitmqctl', 'nssl ', 'net user',
    ],
    before: `(?:${PROGRAM_FLAGS.join('|')})`,
    examples: {
      truePositives: [
        `mysql -h db.internal -uroot -p${pw('m1')} app`,
        `mysqldump -u backup -p'${pw('m2')}' --single-transaction shop > shop.sql`,
        `mariadb -p"${pw('m3')}" -e "show databases"`,
        `echo done && docker login -u ci -p ${pw('d1')} registry.internal`,
        `sshpass -p '${pw('s1')}' ssh deploy@10.0.0.5 uptime`,
        `{"cmd":"cd /srv\\nsshpass -p '${pw('s3')}' rsync -a . deploy@10.0.0.5:"}`,
        // JSON-escaped backslashes inside the command (`C:\\Temp`), no line break; a Windows path's
        // part that begins with `n` or `r` is no escaped line break either
        `{"cmd":"mysql --defaults-file=C:\\\\Temp\\\\my.cnf -uroot -p${pw('m5')} app"}`,
        `{"cmd":"mysql --defaults-file=C:\\\\new\\\\my.cnf -uroot -p${pw('m8')} app"}`,
        `{"cmd":"sqlcmd -S sql.internal -i C:\\\\repos\\\\run.sql -P ${pw('q5')}"}`,
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
        // in JSON text, a server whose name begins with `n` (`\\\\nas01`: escaped backslashes, no line break)
        `{"cmd":"net use Z: \\\\\\\\nas01\\\\share /user:CORP\\\\svc_backup ${pw('n8')} /persistent:no"}`,
        `ldapsearch -x -H ldaps://ldap.internal -D "cn=admin,dc=corp,dc=internal" -w ${pw('l1')} -b "dc=corp,dc=internal" "(uid=jdoe)"`,
        `ldapmodify -x -D cn=admin,dc=corp -w '${pw('l2')}' -f change.ldif`,
        // a password that begins with `%`, no Windows variable
        `redis-cli -h redis.internal -a %${pw('r2')} PING`,
        `twine upload -u deploy -p ${pw('t1')} dist/*`,
        `mosquitto_pub -h broker.local -u sensor -P '${pw('mq1')}' -t home/temp -m 21.5`,
        `az login --service-principal -u 3f1c9a2e-1111-4c3b-9a6e-2b7d8e9f0a1b -p ${pw('az1')} --tenant contoso.onmicrosoft.com`,
        `lftp -u deploy,${pw('lf1')} sftp://files.internal -e "mirror -R dist /www; quit"`,
        `rabbitmqctl add_user deploy ${pw('rq1')} && rabbitmqctl set_user_tags deploy administrator`,
        `rabbitmqctl change_password guest '${pw('rq2')}'`,
        `openssl enc -aes-256-cbc -salt -pbkdf2 -in backup.tar -out backup.tar.enc -k ${pw('os1')}`,
        `openssl aes-256-cbc -d -in secrets.enc -out secrets.env -k '${pw('os2')}'`,
        `useradd -m -p "$(openssl passwd -6 -salt x9 '${pw('os3')}')" deploy`,
        `mysqladmin -u root -h db.internal password '${pw('ma1')}'`,
        `net use \\\\files\\backup ${pw('n6')} /user:CORP\\svc_backup /persistent:no`,
        `net user svc_deploy ${pw('n7')} /add /domain`,
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
        'redis-cli -h cache -a %REDIS_PASSWORD% ping',
        'twine upload -u __token__ -p "$PYPI_TOKEN" dist/*',
        'mosquitto_pub -h broker.local -p 1883 -t home/temp -m 21.5',
        'az login --service-principal -u 3f1c9a2e-1111-4c3b-9a6e-2b7d8e9f0a1b -p /etc/ssl/sp.pem --tenant contoso.onmicrosoft.com',
        'lftp -u deploy sftp://files.internal',
        'rabbitmqctl add_user deploy "$RABBIT_PASSWORD"',
        "ssh-keygen -t ed25519 -N '' -f ~/.ssh/id_ed25519",
        'ssh-keygen -lf ~/.ssh/id_ed25519.pub -E sha256',
        'net use Z: \\\\files\\share /user:CORP\\svc * /persistent:yes',
        'net use Z: \\\\files\\share /user:CORP\\svc /persistent:yes',
        'ldapsearch -x -D "cn=admin,dc=corp" -W -b dc=corp',
        'ldapsearch -x -D cn=admin,dc=corp -w "$LDAP_BIND_PW" -b dc=corp',
        'ldapsearch -x -D cn=admin,dc=corp -y /run/secrets/ldap_pw -b dc=corp',
        'openssl enc -aes-256-cbc -in a.tar -out a.enc -kfile /run/secrets/key',
        'openssl enc -aes-256-cbc -K 000102030405060708090a0b0c0d0e0f -iv 0f0e0d0c0b0a09080706050403020100 -in a -out b',
        'openssl enc -aes-256-cbc -in a -out b -k "$BACKUP_KEY"',
        'openssl passwd -6 -stdin < pw.txt',
        'openssl s_client -connect host:443 -keylogfile keys.log',
        'mysqladmin -u root -p password',
        'net use \\\\files\\backup /user:CORP\\svc_backup /persistent:no',
        'net use Z: \\\\files\\share * /user:CORP\\svc',
        'net user svc_deploy /delete',
        'net user svc_deploy * /add',
        'net user administrator /active:yes',
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
    id: 'cli-config-credential',
    family: 'command-line',
    description: 'Credential given to a CLI\'s secret store or settings: `gh secret set NAME --body V`, `az keyvault secret set … --value V`, `aws ssm put-parameter --type SecureString … --value V`, `kubectl create secret … --from-literal=NAME=V` / `--docker-password=V`, `poetry config http-basic.REPO USER PASS` / `pypi-token.REPO V`, `ngrok config add-authtoken V`, `aws configure set aws_secret_access_key V` (read to the next space: a `,` or a bracket in it too; any other `config set KEY V` of npm, aws, gh or dotnet is an assignment to the generic and provider rules)',
    // (each at a word that begins a keyword already, `secret`, `http`, `pypi`, where it can: a new start lets the scan's first filter pass more text)
    keywords: ['http-basic.', 'pypi-token.', 'secret set', 'put-parameter', '--from-literal=', '--docker-password', 'authtoken ', 'aws_secret_access_key ', 'aws_session_token '],
    before: `(?:${CONFIG_SETTERS.join('|')})`,
    validate: (secret, match) => {
      const key = match.groups?.['setkey'];
      if (key !== undefined && !namesCredential('', key)) return false;
      // a parameter is secret only as a SecureString (a String parameter is plain configuration)
      if (match.groups?.['ssm'] !== undefined && !/--type[ \t=]{1,4}["']?SecureString/.test(lineOf(match))) return false;
      return isPasswordArgument(secret);
    },
    examples: {
      truePositives: [
        `poetry config http-basic.private ci-bot ${pw('cc5')}`,
        `poetry config pypi-token.pypi ${pw('cc6')}`,
        `gh secret set DEPLOY_TOKEN --repo acme/app -b ${pw('cc7')}`,
        `az keyvault secret set --vault-name kv-prod --name db-password --value '${pw('cc8')}'`,
        `aws ssm put-parameter --name /prod/db/password --type SecureString --value ${pw('cc9')} --overwrite`,
        `kubectl create secret generic app --from-literal=DB_URL=postgres://db/app --from-literal=root=${pw('cc10')} -n prod`,
        `kubectl create secret docker-registry regcred --docker-server=ghcr.io --docker-username=ci --docker-password=${pw('cc11')}`,
        `ngrok config add-authtoken 2${sample(ALNUM, 26, 'ng1')}_${sample(ALNUM, 21, 'ng2')}`,
        `ngrok authtoken 2${sample(ALNUM, 26, 'ng3')}_${sample(ALNUM, 21, 'ng4')}`,
        `aws configure set aws_secret_access_key ${pw('cc12').slice(0, 10)},+0 --profile deploy`,
      ],
      falsePositives: [
        'gh secret set DEPLOY_TOKEN < token.txt',
        'gh secret set DEPLOY_TOKEN --body "$DEPLOY_TOKEN"',
        'aws ssm put-parameter --name /prod/app/log-level --type String --value warn1234567',
        'az keyvault secret set --vault-name kv --name tls --file ./cert.pfx',
        'kubectl create secret generic app --from-literal=password=$(cat /run/pw) --from-file=./key.pem',
        'kubectl create configmap app --from-literal=mode=production123',
        'ngrok config add-authtoken $NGROK_AUTHTOKEN',
        'ngrok config add-authtoken <token>',
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
    before: String.raw`(?<![\w-])sudo(?:[ \t]{1,4}-[A-Za-z]{1,8}(?:[ \t]{1,4}[\w.-]{1,64})?)*?[ \t]{1,4}(?:-S|--stdin)(?![\w-])${commandChar('<')}{0,200}?<<<[ \t]{0,4}`,
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
    pattern: new RegExp(ECHOED_INTO() + String.raw`sudo(?:[ \t]{1,4}-[A-Za-z]{1,8}(?:[ \t]{1,4}[\w.-]{1,64})?)*?[ \t]{1,4}(?:-S|--stdin)(?![\w-])`, 'g'),
    secretGroup: 'secret',
    generic: true,
    validate: isPasswordArgument,
    examples: {
      truePositives: [`echo "${pw('u3')}" | sudo -S apt-get update -y`, `printf '%s\\n' '${pw('u4')}' | sudo --stdin -u deploy systemctl reload app`, `echo ${pw('u5')} | sudo -k -S rm -rf /var/cache/app`],
      falsePositives: ['echo "$SUDO_PASSWORD" | sudo -S apt-get update', 'echo "${{ secrets.SUDO_PASSWORD }}" | sudo -S true', 'echo done | sudo -s', 'cat pass.txt | sudo -S true', 'echo password | sudo -S true'],
    },
  }),
  rule({
    id: 'chpasswd-piped-password',
    family: 'command-line',
    description: "Password echoed into chpasswd as `user:PASS` (echo 'deploy:PASS' | chpasswd, printf … | sudo chpasswd)",
    // (at `passwd`, a start the scan has already for htpasswd and the credential words)
    keywords: ['passwd'],
    // (the pair stands before the keyword: read back in the lookbehind, the password's group found
    // by indices; in a JSON string its quotes are escaped, and the command may follow a `\n`; `-e`
    // says the password is a hash already)
    pattern: new RegExp(
      String.raw`(?<=${PROGRAM_START}(?:echo(?:[ \t]{1,4}-[ne]{1,2})?|printf(?:[ \t]{1,4}'%s(?:\\{1,4}n)?')?)[ \t]{1,4}` +
        String.raw`(?:\\{0,3}"[\w.-]{1,64}:(?<secret>[^"\\\r\n]{1,128})\\{0,3}"|'[\w.-]{1,64}:(?<secret2>[^'\r\n]{1,128})'|[\w.-]{1,64}:(?<secret3>[^\s"'|;&<>()\\]{1,128}))` +
        String.raw`[ \t]{0,4}\|[ \t]{0,4}(?:sudo[ \t]{1,4})?ch)passwd(?![\w-])(?![ \t]{1,4}(?:-e|--encrypted)(?![\w-]))`,
      'g',
    ),
    secretGroup: 'secret',
    generic: true,
    validate: isPasswordArgument,
    examples: {
      truePositives: [`echo 'deploy:${pw('cp1')}' | chpasswd`, `echo "root:${pw('cp2')}" | sudo chpasswd && passwd -e root`, `printf '%s\\n' ops:${pw('cp3')} | chpasswd`],
      falsePositives: ['echo "deploy:$DEPLOY_PASSWORD" | chpasswd', "echo 'deploy:$6$rounds=5000$abc$def' | chpasswd -e", 'echo "root:password" | chpasswd', 'cat users.txt | chpasswd'],
    },
  }),
  rule({
    id: 'cli-piped-secret',
    family: 'command-line',
    description: 'Secret echoed into a secret store\'s CLI on its standard input (echo V | gcloud secrets versions add … --data-file=-, wrangler secret put, docker secret create, gh secret set), or into a registry login (echo V | docker login … --password-stdin)',
    // (each at the word after the program's name, `secret…`, a start the scan has already: a new
    // one, `gh`, `ve`, `env`, let its first filter pass 0.6-1 % more positions of package text;
    // so `vercel env add` is not read)
    // (`login `, the start of `docker login`, is a keyword of cli-password-flag already)
    keywords: ['secrets versions', 'secrets create', 'secret put', 'secret create', 'secret set', 'login '],
    pattern: new RegExp(
      ECHOED_INTO(String.raw`(?:(?:gcloud|wrangler(?:[ \t]{1,4}pages)?|docker|podman|nerdctl|gh)[ \t]{1,4})`) +
        String.raw`(?:(?<=gcloud[ \t]{1,4})secrets[ \t]{1,4}(?:versions[ \t]{1,4}add|create)|(?<=wrangler[ \t]{1,4}(?:pages[ \t]{1,4})?)secret[ \t]{1,4}put|(?<=docker[ \t]{1,4})secret[ \t]{1,4}create|(?<=gh[ \t]{1,4})secret[ \t]{1,4}set` +
        String.raw`|(?<=(?:docker|podman|nerdctl)[ \t]{1,4})login(?=[ \t]${commandChar()}{0,256}--password-stdin))(?![\w-])`,
      'g',
    ),
    secretGroup: 'secret',
    generic: true,
    validate: isPasswordArgument,
    examples: {
      truePositives: [
        `echo -n "${pw('sp1')}" | gcloud secrets versions add db-password --data-file=-`,
        `printf '%s' '${pw('sp2')}' | wrangler secret put STRIPE_KEY`,
        `echo ${pw('sp3')} | gh secret set API_TOKEN --repo acme/app`,
        `printf ${pw('sp4')} | docker secret create db_password -`,
        `echo '${pw('sp5')}' | docker login registry.acme.io -u deploy --password-stdin`,
      ],
      falsePositives: [
        'echo -n "$DB_PASSWORD" | gcloud secrets versions add db-password --data-file=-',
        'echo "${{ secrets.TOKEN }}" | gh secret set TOKEN',
        'echo done | wrangler secret list',
        'echo "$CR_PAT" | docker login ghcr.io -u USERNAME --password-stdin',
        'echo "${{ secrets.GITHUB_TOKEN }}" | docker login ghcr.io -u ${{ github.actor }} --password-stdin',
        'echo starting | docker login registry.acme.io -u deploy -p "$PASS"',
      ],
    },
  }),
  passwordRule({
    id: 'env-password-before-command',
    family: 'command-line',
    description: "Password in a variable set for one command, holding a `,` or a bracket that ends the generic value (RSYNC_PASSWORD=PASS rsync …, PGPASSWORD=PASS psql …, MYSQL_PWD=PASS mysql …, SSHPASS=PASS sshpass -e …): the unquoted shell word read to its space, then the command (rsync's --password-file names a file, no password)",
    // (at `PASS` and `PWD`, which the generic rule's keywords begin already)
    keywords: ['PASSWORD=', 'PASSWD=', 'PASSPHRASE=', 'PASS=', 'PWD='],
    keywordsMatchCase: true,
    // a CONSTANT_NAME ending in the word, after no word or assignment (a command's start, another variable set for it, a JSON string's start or escape)
    before: String.raw`(?<=(?<![\w.$=:-])(?:[A-Z][A-Z0-9_]{0,40}=[^\s"'\x60;&|()<>]{0,200}[ \t]{1,4}){0,4}(?:[A-Z][A-Z0-9_]{0,40})?)(?:PASSWORD|PASSWD|PASSPHRASE|PASS|PWD)=`,
    // (what a shell word holds unquoted, a `,` or a bracket in it, not first: `[never,always]` is usage; then the command's name)
    value: String.raw`(?=[^\s"'\x60$\\;&|()<>]{0,199}[,{}\[\]])(?<secret>[^\s"'\x60$\\;&|()<>\[{-][^\s"'\x60$\\;&|()<>]{7,199})(?=[ \t]{1,4}(?:[A-Z][A-Z0-9_]{0,40}=[^\s]{0,200}[ \t]{1,4}){0,4}[a-z][\w.+-]{0,40}(?:\s|$))`,
    examples: {
      truePositives: [
        `RSYNC_PASSWORD=Tz8kq,Wm4x9a rsync -az ./dist rsync://deploy@files.internal/www`,
        `PGPASSWORD=Hq4]vN8,pL2m psql -h db.internal -U report -c 'select 1'`,
        `cd /srv && LANG=C RSYNC_PASSWORD=Wd7{kP3,zR9q rsync -a backup@nas.internal::share ./`,
        `MYSQL_PWD=Lx5,Tq9[mB2w mysql -h db.internal -u app shop < dump.sql`,
        `{"command": "RSYNC_PASSWORD=Y3k1Ub,W1l%G3 rsync -az ./dist rsync://backup@files.internal/www", "timeout": 30}`,
      ],
      falsePositives: [
        'rsync -av --password-file=/etc/rsyncd.secret ./dist rsync://deploy@files.internal/www',
        'rsync -av --password-file /etc/rsyncd.secret rsync://backup@nas.internal/share ./',
        'RSYNC_PASSWORD=$(cat /run/secrets/rsync) rsync -az ./dist rsync://deploy@files.internal/www',
        'PGPASSWORD=${DB_PASSWORD} psql -h db.internal -U report',
        'RSYNC_PASSWORD=$RSYNC_PASS rsync -a src/ rsync://u@h/m',
        'SKIP_PASSWORD=[never,always] make check',
      ],
    },
  }),
];
