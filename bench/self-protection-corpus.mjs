// node --import tsx bench/self-protection-corpus.mjs [--before DIR] [--show N]
//
// False refusals of ordinary work: every real agent command of the development corpora
// (/work/shared/trajectories, or FM_TRAJECTORIES) through the pre hook's self-protection, in a
// workspace where agent gates are set up and settings.json holds Failure Memory settings (the
// strictest case). --before DIR: the same through DIR's src (another checkout) for a before/after.
// Script files and archives the lines name are not on this machine: those checks are not exercised.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';

const arg = (name, fallback) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback);
const dir = process.env.FM_TRAJECTORIES || '/work/shared/trajectories';
const show = Number(arg('--show', 40));
const WS = '/home/u/proj';
const prot = {
  memoryDir: `${WS}/.vscode/failure-memory`,
  settings: `${WS}/.vscode/settings.json`,
  settingsHaveOurs: () => true,
  gateConfigs: near => [`${WS}/.claude/settings.json`].filter(c => !near || near(c)),
  ownDirs: ['/home/u/.failure-memory', '/home/u/.vscode/extensions/failure-memory.failure-memory-0.1.0/dist'],
  harnessConfigs: ['.claude/settings.json', '.claude/settings.local.json', '.codex/hooks.json', '.gemini/settings.json', '.github/hooks/failure-memory.json', '.clinerules/hooks'].map(f => `${WS}/${f}`),
  gatesSetUp: () => true,
  settingsBroken: () => false,
};
const where = { workspace: WS, cwd: '.', home: '/home/u' };

async function refuser(root) {
  const m = await import(join(resolve(root), 'src/core/rules/selfProtection.ts'));
  return line => m.selfProtectionRefusal(line, where, prot)?.code;
}

const files = readdirSync(dir).filter(f => f.endsWith('.jsonl.gz') && !f.includes('.shell.')).map(f => join(dir, f));
const lines = [];
for (const f of files) {
  for (const row of gunzipSync(readFileSync(f)).toString('utf8').split('\n').filter(Boolean)) {
    for (const c of JSON.parse(row).commands ?? []) if (typeof c.command === 'string') lines.push({ file: f.replace(/^.*\//, ''), command: c.command });
  }
}
const sides = [['after', await refuser('.')]];
if (arg('--before')) sides.unshift(['before', await refuser(arg('--before'))]);
for (const [side, refuse] of sides) {
  const by = new Map();
  const refused = [];
  const t = performance.now();
  for (const l of lines) {
    const code = refuse(l.command);
    if (!code) continue;
    by.set(code, (by.get(code) ?? 0) + 1);
    refused.push({ ...l, code });
  }
  const ms = performance.now() - t;
  console.log(`${side}: ${refused.length} of ${lines.length} commands refused (${files.length} corpora) ${JSON.stringify(Object.fromEntries(by))}; ${(ms / lines.length).toFixed(3)} ms a line`);
  for (const r of refused.slice(0, show)) console.log(`  [${r.code}] ${r.file}: ${JSON.stringify(r.command.slice(0, 240))}`);
}
