 
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { boundOutput } from '../../src/core/text/output';
import { createRedactor, redact, RedactionPatternError, REDACTION_KINDS, validatePatterns } from '../../src/core/text/redact';

import { scaled } from '../support/fuzz';
import { FAKE, rep } from '../support/secrets';

/**
 * The size of each adversarial input: 64 KB in the unit tier (a pattern quadratic on one of them
 * would already take seconds), 5 MB in the full-scale run (../support/fuzz.ts).
 */
const ADVERSARIAL = scaled(64 * 1024, 5 * 1024 * 1024);
const SIZE_NAME = scaled('64 KB', '5 MB');

const BEGIN = (kind: string) => `-----BEGIN ${kind}PRIVATE KEY-----`;
const END = (kind: string) => `-----END ${kind}PRIVATE KEY-----`;

const r = createRedactor();
const red = (text: string) => r.redact(text).text;

/** Asserts every secret is gone and every marker kind is present. */
function gone(text: string, secrets: string[], kinds: string[]) {
  const out = r.redact(text);
  for (const s of secrets) assert.ok(!out.text.includes(s), `still holds ${s}:\n${out.text}`);
  for (const k of kinds) assert.ok(out.text.includes(`[REDACTED:${k}]`), `no [REDACTED:${k}] in:\n${out.text}`);
  return out;
}

describe('redact: cloud provider credentials', () => {
  test('AWS access key ids (AKIA/ASIA) and secret access keys', () => {
    const out = gone(
      `[default]\naws_access_key_id = ${FAKE.awsId}\naws_secret_access_key = ${FAKE.awsSecret}\naws_session_id=${FAKE.awsSessionId}`,
      [FAKE.awsId, FAKE.awsSecret, FAKE.awsSessionId],
      ['aws-access-key', 'aws-secret-key'],
    );
    assert.match(out.text, /aws_secret_access_key = \[REDACTED:aws-secret-key\]/);
  });

  test('AWS secret in an env dump', () => {
    gone(`AWS_SECRET_ACCESS_KEY=${FAKE.awsSecret}\nAWS_REGION=eu-west-1`, [FAKE.awsSecret], ['aws-secret-key']);
    assert.match(red(`AWS_SECRET_ACCESS_KEY=${FAKE.awsSecret}\nAWS_REGION=eu-west-1`), /AWS_REGION=eu-west-1/);
  });

  test('GCP API keys and service-account JSON private keys', () => {
    gone(`curl "https://maps.googleapis.com/maps/api/geocode/json?key=${FAKE.gcpKey}"`, [FAKE.gcpKey], ['gcp-api-key']);
    const sa = JSON.stringify({
      type: 'service_account',
      project_id: 'demo-project',
      private_key_id: 'abc123',
      private_key: `${BEGIN('')}\n${FAKE.pemBody}\n${END('')}\n`,
      client_email: 'svc@demo-project.iam.gserviceaccount.com',
    });
    const out = gone(sa, [FAKE.pemBody.slice(0, 40), 'MIIEvQ'], ['private-key']);
    assert.match(out.text, /"client_email":"svc@demo-project\.iam\.gserviceaccount\.com"/);
    assert.match(out.text, /"project_id":"demo-project"/);
  });

  test('Azure storage connection strings and SAS tokens', () => {
    const key = rep('abcdEFGH1234+/', 6) + '==';
    const out = gone(
      `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${key};EndpointSuffix=core.windows.net`,
      [key],
      ['azure-key'],
    );
    assert.match(out.text, /AccountName=acct;AccountKey=\[REDACTED:azure-key\];EndpointSuffix=core\.windows\.net/);
    const sig = 'abcd%2Befgh1234ijkl%3D';
    gone(`https://acct.blob.core.windows.net/c/b.txt?sv=2020-08-04&ss=b&sp=r&sig=${sig}`, [sig], ['azure-sas']);
    gone(`BlobEndpoint=https://acct.blob.core.windows.net/;SharedAccessSignature=sv=2020-08-04&sig=${sig}`, [sig], ['azure-sas']);
  });
});

describe('redact: service tokens', () => {
  test('GitHub tokens of every prefix', () => {
    gone(`GITHUB_TOKEN=${FAKE.ghp} gh auth status`, [FAKE.ghp], ['github-token']);
    gone(`oauth ${FAKE.gho} server ${FAKE.ghs}`, [FAKE.gho, FAKE.ghs], ['github-token']);
    gone(`token: ${FAKE.ghPat}`, [FAKE.ghPat], ['github-token']);
  });

  test('a GitHub token as the user part of a URL', () => {
    gone(`git clone https://${FAKE.ghp}@github.com/org/repo.git`, [FAKE.ghp], ['github-token']);
  });

  test('GitLab and npm tokens, .npmrc auth lines', () => {
    gone(`curl --header "PRIVATE-TOKEN: ${FAKE.glpat}" https://gitlab.com/api/v4/projects`, [FAKE.glpat], ['gitlab-token']);
    gone(`NPM_TOKEN=${FAKE.npm}`, [FAKE.npm], ['npm-token']);
    const rc = `//registry.npmjs.org/:_authToken=${rep('x1Y2', 9)}\n@my:registry=https://npm.pkg.github.com/`;
    const out = gone(rc, [rep('x1Y2', 9)], ['npm-token']);
    assert.match(out.text, /^\/\/registry\.npmjs\.org\/:_authToken=\[REDACTED:npm-token\]$/m);
    assert.match(out.text, /@my:registry=https:\/\/npm\.pkg\.github\.com\//);
  });

  test('Slack tokens and webhooks', () => {
    gone(`SLACK_BOT=${FAKE.slackBot}`, [FAKE.slackBot], ['slack-token']);
    const out = gone(`curl -X POST ${FAKE.slackHook} -d '{"text":"hi"}'`, [FAKE.slackHook.split('/services/')[1]], ['slack-webhook']);
    assert.match(out.text, /https:\/\/hooks\.slack\.com\/services\/\[REDACTED:slack-webhook\]/);
  });

  test('Stripe, SendGrid, Twilio', () => {
    gone(`stripe.api_key = "${FAKE.stripe}"`, [FAKE.stripe], ['stripe-key']);
    gone(`STRIPE=${FAKE.stripeTest} RK=${FAKE.stripeRestricted}`, [FAKE.stripeTest, FAKE.stripeRestricted], ['stripe-key']);
    gone(`SENDGRID=${FAKE.sendgrid}`, [FAKE.sendgrid], ['sendgrid-key']);
    gone(`twilio sid ${FAKE.twilioSid} key ${FAKE.twilioKey}`, [FAKE.twilioSid, FAKE.twilioKey], ['twilio-key']);
  });

  test('OpenAI, Anthropic, Hugging Face', () => {
    gone(`OpenAI key ${FAKE.openai} and ${FAKE.openaiProj}`, [FAKE.openai, FAKE.openaiProj], ['openai-key']);
    const out = gone(`ANTHROPIC_API_KEY=${FAKE.anthropic}`, [FAKE.anthropic], ['anthropic-key']);
    assert.ok(!out.kinds.includes('openai-key'), 'an Anthropic key is not an OpenAI key');
    gone(`huggingface-cli login --token ${FAKE.hf}`, [FAKE.hf], ['huggingface-token']);
  });

  test('JWTs anywhere', () => {
    gone(`{"id_token":"${FAKE.jwt}"}`, [FAKE.jwt], ['jwt']);
    gone(`session=${FAKE.jwt}; Path=/`, [FAKE.jwt.split('.')[2]], ['jwt']);
  });
});

describe('redact: headers, keys, URLs', () => {
  test('Authorization headers: Bearer, Basic, token, and curl -H', () => {
    const out = gone(`curl -H "Authorization: Bearer abc.def.ghi" -H 'Accept: application/json' https://api.example.com`, ['abc.def.ghi'], ['authorization']);
    assert.match(out.text, /-H "Authorization: Bearer \[REDACTED:authorization\]" -H 'Accept: application\/json'/);
    gone('Authorization: Basic dXNlcjpodW50ZXIy', ['dXNlcjpodW50ZXIy'], ['authorization']);
    gone(`authorization: token ${FAKE.ghp}`, [FAKE.ghp], ['authorization']);
    gone('Proxy-Authorization: Digest username="bob", response="6629fae49393a05397450978507c4ef1"', ['6629fae49393a05397450978507c4ef1'], ['authorization']);
  });

  test('custom X- headers that name a secret, also written without the colon (HTTP/2, gRPC dumps)', () => {
    assert.equal(gone('x-internal-token zq9Xk2LmP0aB7cD', ['zq9Xk2LmP0aB7cD'], ['secret']).text, 'x-internal-token [REDACTED:secret]');
    gone('> X-Api-Key   zq9Xk2LmP0aB7cD\n> accept: */*', ['zq9Xk2LmP0aB7cD'], ['secret']);
    gone('curl -H "x-internal-token: zq9Xk2LmP0aB7cD" https://api.example.com', ['zq9Xk2LmP0aB7cD'], ['secret']);
    // an X- header whose name says nothing secret, or a word after the name, stays
    assert.equal(red('x-request-id 1234abcd5678'), 'x-request-id 1234abcd5678');
    assert.equal(red('the x-internal-token header is required'), 'the x-internal-token header is required');
  });

  test('PEM private key blocks, several kinds, also cut off by truncation', () => {
    for (const kind of ['', 'RSA ', 'EC ', 'OPENSSH ', 'ENCRYPTED ']) {
      const text = `key:\n${BEGIN(kind)}\n${FAKE.pemBody}\n${END(kind)}\nafter`;
      const out = gone(text, ['MIIEvQ', 'QUJDREVG'], ['private-key']);
      assert.match(out.text, /^key:\n\[REDACTED:private-key\]\nafter$/);
    }
    const cut = `${BEGIN('RSA ')}\n${FAKE.pemBody}\n… [4096 bytes omitted by Failure Memory] …`;
    gone(cut, ['MIIEvQ', 'QUJDREVG'], ['private-key']);
  });

  test('credentials in URLs keep scheme, user name and host (only the password is secret)', () => {
    assert.equal(red('git push https://user:hunter2@example.com/repo.git'), 'git push https://user:[REDACTED:url-credentials]@example.com/repo.git');
    assert.equal(red('psql postgres://admin:s3cr3t@db.example.com:5432/app'), 'psql postgres://admin:[REDACTED:url-credentials]@db.example.com:5432/app');
    assert.equal(
      red('MONGO_URI=mongodb+srv://user:p%40ss@cluster0.abcd.mongodb.net/test?retryWrites=true'),
      'MONGO_URI=mongodb+srv://user:[REDACTED:url-credentials]@cluster0.abcd.mongodb.net/test?retryWrites=true',
    );
    assert.equal(red('redis://:topsecret@cache:6379/0'), 'redis://:[REDACTED:url-credentials]@cache:6379/0');
    assert.equal(red('amqp://guest:gu@st:pw@rabbit:5672'), 'amqp://guest:[REDACTED:url-credentials]@rabbit:5672');
  });

  test('env dumps: the key stays, the value goes', () => {
    const env = [
      'DB_PASSWORD=hunter2',
      'PGPASSWORD=pg-pass-1',
      'MYSQL_ROOT_PASSWD=rootpw',
      'JWT_SECRET=very-secret-value',
      'SLACK_TOKEN=tok123',
      'STRIPE_API_KEY=stripekey1',
      'MAPS_APIKEY=maps1',
      'SIGNING_PRIVATE_KEY=pk-value',
      'GOOGLE_CREDENTIALS=cred-value',
      'BASIC_AUTH=user:pw',
      'HOME=/home/dev',
      'NODE_ENV=production',
    ].join('\n');
    const out = gone(env, ['hunter2', 'pg-pass-1', 'rootpw', 'very-secret-value', 'tok123', 'stripekey1', 'maps1', 'pk-value', 'cred-value', 'user:pw'], ['password', 'secret']);
    assert.match(out.text, /^DB_PASSWORD=\[REDACTED:password\]$/m);
    assert.match(out.text, /^JWT_SECRET=\[REDACTED:secret\]$/m);
    assert.match(out.text, /^HOME=\/home\/dev$/m);
    assert.match(out.text, /^NODE_ENV=production$/m);
  });

  test('assignments in config formats: YAML, JSON, .env with quotes, query strings, connection strings', () => {
    gone('database:\n  password: hunter2\n  user: app', ['hunter2'], ['password']);
    gone('PASSWORD: hunter2', ['hunter2'], ['password']);
    gone('{"client_secret": "cs-123", "access_token": "at-456", "api_key": "ak-789"}', ['cs-123', 'at-456', 'ak-789'], ['secret']);
    gone(`export API_TOKEN='quoted value with spaces'`, ['quoted value with spaces'], ['secret']);
    const q = gone('GET https://api.example.com/v1/items?access_token=at-999&page=2', ['at-999'], ['secret']);
    assert.match(q.text, /&page=2$/);
    gone('Server=tcp:db.windows.net;Database=app;User ID=sa;Password=Pa55w0rd!;Encrypt=true', ['Pa55w0rd!'], ['password']);
    gone('const secret = "s3cr3t-in-code";', ['s3cr3t-in-code'], ['secret']);
    gone('X-Api-Key: xak-123456', ['xak-123456'], ['secret']);
  });

  test('command-line flags: --password, --token=, mysql -p, docker login -p, curl -u', () => {
    const out = gone(
      'tool --password hunter2 --token=tok-1 --api-key "k e y" --client-secret cs1 --verbose',
      ['hunter2', 'tok-1', 'k e y', 'cs1'],
      ['password', 'secret'],
    );
    assert.match(out.text, /--verbose$/);
    assert.equal(red('mysql -u root -psup3rs3cret mydb'), 'mysql -u root -p[REDACTED:password] mydb');
    assert.equal(red('mysql -u root -p mydb'), 'mysql -u root -p mydb', 'a bare -p prompts: nothing to hide');
    gone('docker login -u bob -p hunter2 registry.example.com', ['hunter2'], ['password']);
    gone('echo "$PW" | docker login --password-stdin -u bob ghcr.io', [], []);
    assert.match(red('echo x | docker login --password-stdin ghcr.io'), /ghcr\.io$/);
    gone('curl -u bob:hunter2 https://api.example.com', ['hunter2'], ['password']);
    gone('machine api.example.com login bob password hunter2', ['hunter2'], ['password']);
  });
});

describe('redact: keeps what is useful', () => {
  const unchanged = (text: string) => assert.equal(red(text), text);

  test('error messages that mention tokens, passwords and secrets', () => {
    unchanged('SyntaxError: Unexpected token }');
    unchanged("SyntaxError: Unexpected token '}' in JSON at position 42");
    unchanged('Unexpected token: punc (})');
    unchanged('error: password authentication failed for user "postgres"');
    unchanged('psql: FATAL:  password authentication failed for user "x"');
    unchanged('Error: invalid token: expected identifier');
    unchanged('fatal: Authentication failed for \'https://github.com/me/repo.git/\'');
    unchanged('The secret "db-creds" was not found in namespace default');
    unchanged('WWW-Authenticate: Bearer realm="api", error="invalid_token"');
    unchanged('{"level":"info","msg":"token refreshed","token_type":"Bearer","expires_in":3600}');
  });

  test('paths, SHAs, UUIDs, package names, versions', () => {
    unchanged('commit 3f2a9b1c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a');
    unchanged('request id 123e4567-e89b-12d3-a456-426614174000');
    unchanged("Error: Cannot find module '@prisma/client' from /home/dev/app/src/index.ts:12:5");
    unchanged('npm ERR! 404 Not Found - GET https://registry.npmjs.org/@types%2fnode - Not found');
    unchanged('added scikit-learn==1.4.0 task-runner-v2 sk-learn');
    unchanged('sha512-abcdEFGH1234+/==');
    unchanged('http://localhost:3000/@vite/client');
    unchanged('git@github.com:org/repo.git');
  });

  test('keys that only look secret: counts, names, switches, references', () => {
    unchanged('MAX_TOKENS=4096 max_tokens: 1024 TOKENIZERS_PARALLELISM=false AUTHOR=me author: Jane');
    unchanged('SECRET_NAME=db-creds AUTH_URL=https://auth.example.com PASSWORD_FILE=/run/secrets/db');
    unchanged('password: ${DB_PASSWORD}');
    unchanged('token = process.env.GITHUB_TOKEN;');
    unchanged('api_key: <your key here>');
    unchanged('PASSWORD=');
    unchanged('password: ********');
  });
});

describe('redact: result, user patterns, robustness', () => {
  test('count and kinds', () => {
    const out = r.redact(`a=${FAKE.ghp} b=${FAKE.ghp} password=x1 url https://u:p@h.example`);
    assert.equal(out.count, 4);
    assert.deepEqual(out.kinds, ['github-token', 'password', 'url-credentials']);
    assert.deepEqual(r.redact('nothing here'), { text: 'nothing here', count: 0, kinds: [] });
  });

  test('every kind emitted is a known kind', () => {
    const known = new Set<string>(REDACTION_KINDS);
    const all = Object.values(FAKE).join(' ') + ' password=p Authorization: Bearer x https://u:p@h mysql -pX';
    const out = r.redact(all);
    for (const k of out.kinds) assert.ok(known.has(k), `unknown kind ${k}`);
    // the samples reach most kinds (not an empty list, nor one catch-all): the loop above checked something
    const never = [...known].filter(k => !out.kinds.includes(k as never));
    assert.ok(out.kinds.length >= 15, `only ${out.kinds.join(', ')} emitted; never: ${never.join(', ')}`);
    assert.equal(new Set(out.kinds).size, out.kinds.length, 'each kind once');
  });

  test('redacting twice changes nothing more', () => {
    const text = `GITHUB_TOKEN=${FAKE.ghp}\npassword: hunter2\nAuthorization: Bearer ${FAKE.jwt}\n${BEGIN('')}\n${FAKE.pemBody}\n${END('')}`;
    const once = red(text);
    assert.equal(red(once), once);
    assert.equal(r.redact(once).count, 0);
  });

  test('user patterns become [REDACTED:custom]', () => {
    const custom = createRedactor(['ACME-[0-9]{6}', '/internal\\.corp\\.example/i']);
    const out = custom.redact('ticket ACME-123456 on INTERNAL.corp.example, token=ghp');
    assert.equal(out.text, 'ticket [REDACTED:custom] on [REDACTED:custom], token=[REDACTED:secret]');
    assert.ok(out.kinds.includes('custom'));
    assert.equal(redact('id ACME-000001', ['ACME-[0-9]{6}']), 'id [REDACTED:custom]');
  });

  test('an invalid user pattern throws RedactionPatternError naming it', () => {
    assert.throws(
      () => createRedactor(['ok-[0-9]+', 'bad(']),
      (e: unknown) => e instanceof RedactionPatternError && e.pattern === 'bad(' && e.message.includes('bad('),
    );
    assert.throws(() => createRedactor(['x*']), RedactionPatternError, 'a pattern matching the empty string is rejected');
  });

  test('validatePatterns splits valid from invalid', () => {
    const v = validatePatterns(['ok-[0-9]+', 'bad(', '', 'a|b']);
    assert.deepEqual(v.valid, ['ok-[0-9]+', 'a|b']);
    assert.equal(v.errors.length, 2);
    assert.ok(v.errors[0].includes('bad('));
  });

  test('redact() convenience', () => {
    assert.equal(redact(`x ${FAKE.hf}`), 'x [REDACTED:huggingface-token]');
    assert.equal(redact(''), '');
  });

  test('binary garbage does not throw and keeps its length roughly', () => {
    const garbage = Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7919 + (i >> 3)) % 256)).toString('latin1');
    const out = r.redact(garbage);
    assert.equal(typeof out.text, 'string');
    assert.ok(out.text.length > garbage.length / 2);
  });

  test(`${SIZE_NAME} adversarial inputs finish (no catastrophic backtracking)`, () => {
    const fill = (unit: string) => unit.repeat(Math.ceil(ADVERSARIAL / unit.length));
    const inputs = [
      fill('a'),
      fill(':'),
      fill('-'),
      fill('password='),
      fill('"password": "'),
      fill('--token '),
      fill(BEGIN('RSA ')),
      fill('https://'),
      fill('a://b:'),
      fill('u:p@'),
      fill('eyJaaaaa.'),
      fill('sk-'),
      fill('Authorization: '),
      fill('mysql -p'),
      fill('docker login '),
      fill('AKIA'),
      fill('xoxb-'),
      fill('ghp_'),
      fill('SG.aaaaaaaaaaaaaaaaaaaa'),
      fill('key=\\'),
    ];
    for (const input of inputs) {
      const out = r.redact(input);
      assert.equal(typeof out.text, 'string');
    }
  });

  test(`a ${scaled('1 MB', '50 MB')} output is redacted`, () => {
    const line = `compiling module 12345 of the project, see https://example.com/docs and GITHUB_TOKEN=${FAKE.ghp}\n`;
    const lines = Math.ceil(scaled(1, 50) * 1024 * 1024 / line.length);
    const out = r.redact(line.repeat(lines));
    assert.ok(!out.text.includes(FAKE.ghp));
    assert.equal(out.count, lines, 'one token a line');
  });
});

describe('redact: secrets in the places they hid before', () => {
  test('a token as the URL user name without a password (git prints these)', () => {
    const hex = 'f3a9c0d1e2b4a5968778695a4b3c2d1e0f9a8b7c';
    assert.equal(red(`fatal: unable to access 'https://${hex}@github.com/org/repo.git/': 403`), "fatal: unable to access 'https://[REDACTED:url-credentials]@github.com/org/repo.git/': 403");
    // a login name stays
    assert.equal(red('ssh://git@github.com/org/repo'), 'ssh://git@github.com/org/repo');
  });

  test('escaped JSON inside a JSON string', () => {
    const out = red('{"body":"{\\"password\\":\\"hunter2-xyz\\",\\"user\\":\\"bob\\"}"}');
    assert.ok(!out.includes('hunter2'), out);
    assert.ok(out.includes('\\"user\\":\\"bob\\"'), out);
  });

  test('key: value in mid-line', () => {
    assert.ok(!red('error: bad apiKey: sk9f8e7d6c5b4a3210').includes('sk9f8e7d6c5b4a3210'));
    assert.ok(!red('echo password: hunter2').includes('hunter2'));
    // prose stays prose
    assert.equal(red('Invalid password: too short'), 'Invalid password: too short');
  });

  test('a value longer than 4,096 characters is redacted to its end', () => {
    const long = 'Zx9'.repeat(3000);
    const out = red(`api_key=${long} next`);
    assert.equal(out, 'api_key=[REDACTED:secret] next');
  });

  test('a secret cut at the head/tail seam of kept output leaves no half behind', () => {
    const token = FAKE.ghp;
    // one long line: the seam falls inside the token
    const head = 'x '.repeat(100) + token + ' y'.repeat(300);
    const seam = head.indexOf(token) + token.length / 2;
    const cutHead = boundOutput(head, seam * 2);
    assert.ok(cutHead.truncated);
    assert.ok(!cutHead.text.includes(token.slice(0, 12)), cutHead.text);
    // and at the tail's seam
    const tail = 'x '.repeat(300) + token + ' y'.repeat(100);
    const fromEnd = tail.length - (tail.indexOf(token) + token.length / 2);
    const cutTail = boundOutput(tail, fromEnd * 2);
    assert.ok(cutTail.truncated);
    assert.ok(!cutTail.text.includes(token.slice(-12)), cutTail.text);
    // no separator at all: the cut word goes entirely
    assert.ok(!boundOutput(token.repeat(20), 200).text.includes('ghp_'));
  });
});
