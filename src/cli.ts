// The `failure-memory` executable (dist/cli.js). The CLI itself lives in ./cli/.
import { main } from './cli/main';

export { main, parseArgs, toWorkspaceRelative } from './cli/main';

// Run when executed (not when imported by tests).
if (require.main === module) {
  main(process.argv.slice(2)).then(
    code => {
      process.exitCode = code;
    },
    e => {
      process.stderr.write(`failure-memory: ${e}\n`);
      process.exitCode = 1;
    },
  );
}
