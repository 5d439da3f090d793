// The brief handed to a chat or an issue: what it says, and that it passes the same redaction corpus
// as the memory (test/support/secrets.ts) — also when the memory itself holds an unredacted secret
// (written by an older version or by hand): the brief is redacted once more on the way out.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { main } from '../../src/cli';
import { WorkspaceMemory } from '../../src/app/workspaceMemory';
import { FAKE } from '../support/secrets';
import { tempDir } from '../support/tempFolders';

const ws = () => tempDir('fm-brief-');
const OUTPUT = "Error: Cannot find module '@prisma/client'\nRequire stack:\n- /app/src/db.ts\n";

// every secret of the corpus, in the contexts a terminal shows them
const secretOutput = Object.entries(FAKE)
  .map(([name, v]) =>
    name === 'pemBody'
      ? `-----BEGIN RSA PRIVATE KEY-----\n${v}\n-----END RSA PRIVATE KEY-----\n`
      : `${name.toUpperCase()}_SECRET=${v}\nrequest failed: Authorization: Bearer ${v}\n`,
  )
  .join('');

void describe('brief', () => {
  void test('says the command, status, history, last error, attempts and variants, and what fixed similar failures', async () => {
    const dir = ws();
    const memory = new WorkspaceMemory(dir, { git: false });
    await memory.record({ command: 'npx prisma generate', exitCode: 1, source: 'cli', output: OUTPUT });
    await memory.record({ command: 'npx prisma generate --schema prisma/schema.prisma', exitCode: 1, source: 'cli', output: OUTPUT });
    const migrate = await memory.record({ command: 'npx prisma migrate dev', exitCode: 1, source: 'cli', output: OUTPUT });
    await memory.addLearning('learning', 'Run npm install @prisma/client before prisma generate', { key: migrate.attempt.key });
    const brief = (await memory.brief('npx prisma generate'))!;
    assert.match(brief, /^# Failing command: `npx prisma generate --schema prisma\/schema\.prisma`/);
    assert.match(brief, /failing: failed twice in a row \(the limit is 5\)/);
    assert.match(brief, /- History: passed 0 of the last 2 runs/);
    assert.match(brief, /## Last error\n\n```text\nError: Cannot find module '@prisma\/client'/);
    assert.match(brief, /Variants of the command tried: `npx prisma generate`, `npx prisma generate --schema prisma\/schema\.prisma`/);
    assert.match(brief, /## What fixed similar failures before\n\n- `prisma migrate dev`.*: Run npm install @prisma\/client before prisma generate/);
  });

  void test('untrusted output cannot close the code fence', async () => {
    const memory = new WorkspaceMemory(ws(), { git: false });
    await memory.record({ command: 'make', exitCode: 2, source: 'cli', output: 'error: boom\n```\n# injected heading\n````\n' });
    const brief = (await memory.brief('make'))!;
    const open = brief.indexOf('`````text\nerror: boom');
    assert.ok(open >= 0, `the output is fenced with five backticks:\n${brief}`);
    const close = brief.indexOf('\n`````\n', open);
    assert.ok(close > brief.indexOf('# injected heading'), 'the injected lines stay inside the fence');
  });

  void test('passes the redaction corpus: no secret of it appears, from the output, the command or an unredacted memory file', async () => {
    const dir = ws();
    const memory = new WorkspaceMemory(dir, { git: false });
    await memory.record({ command: `deploy --token ${FAKE.ghp}`, exitCode: 1, source: 'cli', output: `${secretOutput}Error: deploy failed\n` });
    // a memory file holding secrets (an older version, or edited by hand): the brief redacts again
    await memory.store.update(data => {
      const a = Object.values(data.approaches)[0];
      a.lastErrorSignature = `Error: auth failed for ${FAKE.openai} (${FAKE.awsId})`;
      a.attempts[0].output += `\nleaked: Authorization: Bearer ${FAKE.jwt}\nGITHUB_TOKEN=${FAKE.ghPat}\n`;
      a.alternativesTried.push(`curl -u admin:${FAKE.stripe} https://api.example.com`);
    });
    const brief = (await memory.brief())!;
    assert.match(brief, /\[REDACTED:/);
    for (const [name, v] of Object.entries(FAKE)) {
      for (const piece of v.split('\n')) assert.ok(!brief.includes(piece), `the brief holds the ${name} secret:\n${brief}`);
    }
  });

  void test('failure-memory brief [--command] prints it; nothing to brief is said plainly', async () => {
    const dir = ws();
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (s: string) => void out.push(s), err: (s: string) => void err.push(s) };
    assert.equal(await main(['brief', '--workspace', dir], io), 0);
    assert.match(out.join(''), /Nothing to brief/);
    await new WorkspaceMemory(dir, { git: false }).record({ command: 'npm test', exitCode: 1, source: 'cli', output: 'Error: boom\n' });
    out.length = 0;
    assert.equal(await main(['brief', '--command', 'npm test', '--workspace', dir], io), 0, err.join(''));
    assert.match(out.join(''), /^# Failing command: `npm test`/);
    out.length = 0;
    assert.equal(await main(['brief', '--command', 'npm test', '--json', '--workspace', dir], io), 0);
    assert.match(JSON.parse(out.join('')).brief, /## Last error/);
    assert.equal(await main(['brief', '--command', 'cargo build', '--workspace', dir], io), 1);
  });
});
