// The case, shared by the pattern tests: one database on :5432 refusing several commands, as
// psql, a Node test run and Prisma print it (and Redis on :6379, another service).
export const NODE_PG = (port = 5432): string => ` FAIL test/db.test.js\n  ● db › connects\n\n    connect ECONNREFUSED 127.0.0.1:${port}\n`;
export const PG = (port = 5432): string => `psql: error: connection to server at "localhost" (127.0.0.1), port ${port} failed: Connection refused\n\tIs the server running on that host and accepting TCP/IP connections?\n`;
export const PRISMA = "Error: P1001: Can't reach database server at `localhost`:`5432`\n\nPlease make sure your database server is running at `localhost`:`5432`.\n";
export const REDIS = 'Could not connect to Redis at 127.0.0.1:6379: Connection refused\n';
export const PSQL = 'psql -h localhost -U app -c "select 1"';

/** Three commands the database refuses, once each: [command, exit code, output]. */
export const REFUSED_RUNS: Array<[command: string, exitCode: number, output: string]> = [
  ['npm test', 1, NODE_PG()],
  [PSQL, 2, PG()],
  ['npx prisma migrate dev', 1, PRISMA],
];
