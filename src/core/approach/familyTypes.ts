// The shape of a family rule: how one CLI's arguments decide WHAT it runs. One table entry per CLI.

/** What later positionals are after a subcommand: install targets (sorted set), make targets (in order), one name. */
export type TargetKind = 'packages' | 'ordered' | 'one';

export interface FamilyRule {
  /** Leading positionals that name the subcommand (git push -> 1). Default 0. */
  subcommands?: number;
  /** Aliases of the first subcommand word: npm i -> install. */
  aliases?: Record<string, string>;
  /** Extra subcommand depth after a subcommand path: docker { compose: 1 } -> 'docker compose up'. */
  nested?: Record<string, number>;
  /** Subcommand paths ('' = the program itself) whose later positionals are significant. */
  targets?: Record<string, TargetKind>;
  /** Flags that take a separate value, added to GENERAL_VALUE_FLAGS. A trailing '#' = only when the value is a number (make -j 4). */
  valueFlags?: string[];
  /** Flags of GENERAL_VALUE_FLAGS that are booleans for this family (npm -f, git -p). */
  boolFlags?: string[];
  /** Runs a script: the first positional (unless it is one of `builtins`) is significant (node app.js). */
  interpreter?: boolean;
  /** Words that are subcommands rather than scripts (bun test) or package scripts (yarn add). */
  builtins?: string[];
  /** npm-style script runner: `run X`; `lifecycle` scripts are named bare (npm run test -> npm test);
   * `implicit`: a first word that is not a builtin is a script (yarn build -> yarn run build); `bare`: no args. */
  runScripts?: { lifecycle: string[]; implicit?: boolean; bare?: string };
  /** Flags whose value is the script (java -jar app.jar). */
  scriptFlags?: string[];
  /** Flags that mean the positionals are not a script (node -e, node --test). */
  noScriptFlags?: string[];
  /** Flags whose value is a whole command line to parse instead (bash -c "npm test"). */
  innerFlags?: string[];
  /** The inner command line is the rest of the words, not one word (cmd /c npm test). */
  innerRest?: boolean;
  /** All the words are a command line the shell runs (eval "npm test"). */
  innerAll?: boolean;
  /** Flags are case-insensitive and may start with '/' (PowerShell, cmd). */
  ignoreCase?: boolean;
}

/** Flags that take a value in most CLIs (`-k foo` consumes foo); `--flag=value` is always one token. */
export const GENERAL_VALUE_FLAGS = [
  '-m', '-k', '-p', '-o', '-c', '-f', '-C', '-r', '-t',
  '--config', '--prefix', '--project', '--cwd', '--dir', '--directory', '--file', '--filter', '--workspace',
  '--output', '--name', '--namespace', '--profile', '--target', '--tag', '--message', '--env-file',
];

export const PACKAGE_INSTALLER = (verbs: string[], extra: FamilyRule = {}): FamilyRule => ({
  subcommands: 1,
  ...extra,
  targets: { ...Object.fromEntries(verbs.map((v) => [v, 'packages' as TargetKind])), ...extra.targets },
});
