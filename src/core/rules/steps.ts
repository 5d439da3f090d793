// What the gate judges of one command line: the lines that stand for what it runs. A line is judged as
// written and as a POSIX shell reads its backslashes (`npm te\st` runs `npm test`); the answer is the
// strongest over them (src/app/gate.ts).

import { posixLine } from '../approach/lexer';

/** The command lines that stand for `line`, each once, the line as written first. */
export function gateSteps(line: string): string[] {
  const steps = [line];
  const posix = posixLine(line);
  if (posix !== line) steps.push(posix);
  return steps;
}
