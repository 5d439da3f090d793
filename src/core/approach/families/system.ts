// System package managers, version control, containers, cloud and infrastructure CLIs, and shells.

import { PACKAGE_INSTALLER, type FamilyRule } from '../familyTypes';

const DOCKER: FamilyRule = {
  subcommands: 1,
  nested: {
    compose: 1, image: 1, container: 1, network: 1, volume: 1, buildx: 1, system: 1, context: 1, builder: 1,
    swarm: 1, service: 1, stack: 1, plugin: 1, manifest: 1, secret: 1, config: 1, node: 1, trust: 1, scout: 1,
  },
  targets: { run: 'one', pull: 'one', push: 'one', exec: 'one', 'container run': 'one', 'compose run': 'one', 'compose exec': 'one' },
  valueFlags: [
    '-e', '-v', '-w', '-u', '-h', '-l', '-H', '--env', '--volume', '--workdir', '--user', '--hostname', '--label',
    '--publish', '--network', '--net', '--entrypoint', '--mount', '--platform', '--add-host', '--cpus', '--memory',
    '--restart', '--gpus', '--pull', '--ulimit', '--shm-size', '--device', '--cap-add', '--cap-drop', '--security-opt',
    '--log-driver', '--log-opt', '--tmpfs', '--ipc', '--pid', '--dns', '--project-name', '--project-directory',
    '--progress', '--build-arg', '--cache-from', '--cache-to', '--context', '--host', '--log-level', '--scale',
    '--timeout', '--format',
  ],
  boolFlags: ['-t', '-i', '-d', '-k', '-r', '-m'],
};

const KUBECTL: FamilyRule = {
  subcommands: 1,
  nested: {
    get: 1, describe: 1, delete: 1, create: 1, rollout: 1, config: 1, top: 1, edit: 1, auth: 1, certificate: 1, set: 1,
  },
  valueFlags: [
    '-n', '-l', '--selector', '--filename', '--container', '--context', '--kubeconfig', '--cluster', '--user',
    '--kustomize', '--image', '--replicas', '--type', '--port', '--field-selector', '--sort-by', '--since', '--tail',
    '--timeout',
  ],
  boolFlags: ['-p', '-t', '-r', '-m'],
};

const TERRAFORM: FamilyRule = {
  subcommands: 1,
  nested: { workspace: 1, state: 1, providers: 1 },
  valueFlags: ['-var', '-var-file', '-target', '-out', '-lock-timeout', '-parallelism', '-backend-config', '-replace', '-state'],
};

const SHELL: FamilyRule = {
  interpreter: true,
  innerFlags: ['-c'],
  valueFlags: ['-O', '--rcfile', '--init-file'],
  boolFlags: ['-f', '-r', '-t', '-m', '-k', '-p', '-C'],
};

const POWERSHELL: FamilyRule = {
  interpreter: true,
  ignoreCase: true,
  innerFlags: ['-command', '-c', '-encodedcommand'],
  innerRest: true,
  scriptFlags: ['-file', '-f'],
  valueFlags: ['-executionpolicy', '-ep', '-workingdirectory', '-wd', '-configurationname', '-settingsfile',
    '-outputformat', '-inputformat', '-windowstyle', '-version'],
};

export const SYSTEM_FAMILIES: Record<string, FamilyRule> = {
  // --- System package managers
  'apt-get': PACKAGE_INSTALLER(['install', 'remove', 'purge', 'reinstall'], { boolFlags: ['-f', '-m', '-k', '-p', '-r'] }),
  apt: PACKAGE_INSTALLER(['install', 'remove', 'purge', 'reinstall'], { boolFlags: ['-f', '-m', '-k', '-p', '-r'] }),
  dnf: PACKAGE_INSTALLER(['install', 'remove', 'erase', 'reinstall']),
  yum: PACKAGE_INSTALLER(['install', 'remove', 'erase', 'reinstall']),
  zypper: PACKAGE_INSTALLER(['install', 'in', 'remove', 'rm']),
  apk: PACKAGE_INSTALLER(['add', 'del']),
  brew: PACKAGE_INSTALLER(['install', 'uninstall', 'reinstall', 'upgrade', 'link', 'unlink'], {
    aliases: { remove: 'uninstall', rm: 'uninstall' },
    nested: { services: 1 },
    targets: { tap: 'one' },
    boolFlags: ['-f', '-m', '-k', '-p', '-r', '-t'],
  }),
  choco: PACKAGE_INSTALLER(['install', 'uninstall', 'upgrade']),
  scoop: PACKAGE_INSTALLER(['install', 'uninstall', 'update']),
  winget: { subcommands: 1, valueFlags: ['--id', '-s', '--source', '-v', '--version'] },

  // --- Version control, containers, cloud, infrastructure
  git: {
    subcommands: 1,
    nested: { remote: 1, stash: 1, submodule: 1, worktree: 1, bisect: 1, lfs: 1, notes: 1, 'sparse-checkout': 1, flow: 2 },
    valueFlags: ['-b', '-B', '-F', '-X', '--author', '--date', '--depth', '--branch', '--format', '--grep', '--since', '--until', '--git-dir', '--work-tree'],
    boolFlags: ['-p', '-f', '-r', '-t', '-k'],
  },
  gh: { subcommands: 2 },
  docker: DOCKER,
  podman: DOCKER,
  nerdctl: DOCKER,
  kubectl: KUBECTL,
  oc: KUBECTL,
  helm: {
    subcommands: 1,
    nested: { repo: 1, dependency: 1, dep: 1, plugin: 1, registry: 1, search: 1, show: 1, get: 1 },
    valueFlags: ['--values', '--set', '--set-string', '--set-file', '-n', '--version', '--kube-context', '--repo', '--timeout'],
  },
  terraform: TERRAFORM,
  tofu: TERRAFORM,
  terragrunt: { ...TERRAFORM, nested: { ...TERRAFORM.nested, 'run-all': 1, run: 1 } },
  pulumi: { subcommands: 1, nested: { stack: 1, config: 1, plugin: 1 }, valueFlags: ['-s', '--stack'] },
  aws: { subcommands: 2, valueFlags: ['--region', '--query', '--endpoint-url'] },
  gcloud: { subcommands: 3, valueFlags: ['--region', '--zone', '--format'] },
  az: { subcommands: 3, valueFlags: ['-g', '--resource-group', '-n', '--subscription', '--query'] },
  cdk: { subcommands: 1 },
  sam: { subcommands: 1 },
  serverless: { subcommands: 1 },
  vagrant: { subcommands: 1 },
  heroku: { subcommands: 1, valueFlags: ['-a', '--app'] },

  // --- Shells: a script is significant, `-c "cmd"` is parsed as the command it runs
  bash: SHELL,
  sh: SHELL,
  zsh: SHELL,
  dash: SHELL,
  ksh: SHELL,
  fish: SHELL,
  pwsh: POWERSHELL,
  powershell: POWERSHELL,
  cmd: { ignoreCase: true, innerFlags: ['/c', '/k'], innerRest: true },
  // eval's words are joined and run as a command line: `eval "npm test"` is `npm test`
  eval: { innerAll: true },
};
