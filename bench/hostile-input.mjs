// node --import tsx bench/hostile-input.mjs [--mb 1]
//
// Time per MB of every pathological output shape (test/fixtures/hostileShapes.ts) through
// redact, record's pipeline (prepareAttempt) and each scanner; prints the worst cases and the worst
// time per MB as a Markdown table for BENCHMARKS.md. Nothing here asserts a time.
import * as os from 'node:os';
import { runHostileShapes } from '../test/fixtures/hostileShapes.ts';

const mb = process.argv.includes('--mb') ? Number(process.argv[process.argv.indexOf('--mb') + 1]) : 1;
// one warm-up pass on small input so that the figures are not the JIT's
runHostileShapes(16 * 1024, () => undefined);
const results = runHostileShapes(Math.round(mb * 1024 * 1024), () => undefined);
// per MB only for inputs of at least 512 KB; the 35-character user-pattern case is listed on its own
const perMb = results.filter(r => r.bytes >= 512 * 1024).map(r => ({ ...r, msPerMb: r.ms / (r.bytes / (1024 * 1024)) })).sort((a, b) => b.msPerMb - a.msPerMb);
const tiny = results.filter(r => r.bytes < 512 * 1024);
console.log(`| Case (stage · shape) | Input | Time | Time per MB |`);
console.log(`|---|---|---|---|`);
for (const r of perMb.slice(0, 10)) console.log(`| ${r.name} | ${(r.bytes / 1024 / 1024).toFixed(2)} MB | ${r.ms.toFixed(0)} ms | ${r.msPerMb.toFixed(0)} ms |`);
for (const r of tiny) console.log(`| ${r.name} | ${r.bytes} characters | ${r.ms.toFixed(1)} ms | (not per MB) |`);
console.log(`\n${results.length} cases; worst ${perMb[0].msPerMb.toFixed(0)} ms per MB (${perMb[0].name}); median ${perMb[Math.floor(perMb.length / 2)].msPerMb.toFixed(0)} ms per MB.`);
console.log(`${os.cpus().length} CPUs, load average ${os.loadavg().map(x => x.toFixed(1)).join(' ')}, Node ${process.version}, ${new Date().toISOString()}`);
