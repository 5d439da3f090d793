// How a generator script ends: writes the file it generated when that differs from what is there,
// or, given --check, exits 1 saying the file is out of date and how to write it again.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** `what` names the file (and the part of it) in the messages; `run` is the command that writes it. */
export function writeGenerated(file, text, { what, run }) {
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
  if (process.argv.includes('--check')) {
    if (current !== text) {
      console.error(`${what} is out of date: run ${run}`);
      process.exit(1);
    }
  } else if (current !== text) {
    writeFileSync(file, text);
    console.log(`${what} written`);
  }
}
