// What an allowed line pays at Enter: the shell's exchange with the extension (media/shell/ask.bash in
// bash, enter.zsh's __fm_enter_ask in zsh, one `bash ask.bash` process per Enter in fish) against the
// real server (EnterGateServer) answering "run" at once. 300 asks per shell after 20 warm-ups; the
// figure is the mean wall time per ask, from the shell's own clock.
//   node --import tsx bench/enter-ask.mjs
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EnterGateServer } from '../src/host/enterGateServer.ts';

const SHELL_DIR = path.resolve(import.meta.dirname, '../media/shell');
const N = 300;
const server = new EnterGateServer(async () => ({ verdict: 'run' }));
const a = await server.listen();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fm-enter-ask-'));
const file = path.join(dir, 'enter-gate');
fs.writeFileSync(file, `FM1 ${a.port} ${a.clientToken} ${a.serverToken} 1.5\n`);
const env = { ...process.env, FAILURE_MEMORY_ENTER: file, FAILURE_MEMORY_SHELL_DIR: SHELL_DIR };
const scripts = {
  bash: ['bash', ['-c', `. ${SHELL_DIR}/ask.bash; for i in {1..20}; do __fm_enter_ask bash $$ /w "" "make $i"; done; s=$EPOCHREALTIME; for i in {1..${N}}; do __fm_enter_ask bash $$ /w "" "make $i"; done; e=$EPOCHREALTIME; echo "$s $e $__fm_enter_verdict"`]],
  zsh: ['zsh', ['-fic', `source ${SHELL_DIR}/enter.zsh 2>/dev/null; zmodload zsh/datetime; for i in {1..20}; do __fm_enter_ask "make $i" ""; done; s=$EPOCHREALTIME; for i in {1..${N}}; do __fm_enter_ask "make $i" ""; done; e=$EPOCHREALTIME; echo "$s $e $__fm_enter_verdict"`]],
  'fish (one bash per Enter)': ['bash', ['-c', `for i in {1..20}; do bash ${SHELL_DIR}/ask.bash fish $$ /w "" "make $i" >/dev/null; done; s=$EPOCHREALTIME; for i in {1..${N}}; do bash ${SHELL_DIR}/ask.bash fish $$ /w "" "make $i" >/dev/null; done; e=$EPOCHREALTIME; echo "$s $e run"`]],
};
const rows = [];
for (const [name, [cmd, args]] of Object.entries(scripts)) {
  // the shell runs while this process serves it: spawn asynchronously
  const out = await new Promise(resolve => {
    const child = spawn(cmd, args, { env });
    let text = '';
    child.stdout.on('data', d => (text += d));
    child.on('close', () => resolve(text.trim()));
  });
  const [s, e, verdict] = out.split(' ');
  rows.push(`| ${name} | ${(((Number(e) - Number(s)) * 1000) / N).toFixed(2)} ms | ${verdict} |`);
}
server.close();
fs.rmSync(dir, { recursive: true, force: true });
console.log(`| shell | per allowed line | answer |\n|---|---|---|\n${rows.join('\n')}`);
