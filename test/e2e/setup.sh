#!/usr/bin/env bash
# Installs what the end-to-end tests need into <repo>/.e2e (git-ignored):
#   - Debian packages: chromium (the browser), libkrb5-dev (headers for code-server's `kerberos`
#     native module), ripgrep (seeds @vscode/ripgrep's download cache)
#   - code-server 4.100.3 = VS Code 1.100.3, the last release whose engines say Node 20
#   - playwright-core (driver only; it drives Debian's /usr/bin/chromium, no browser download)
# Idempotent: every step checks whether it is already done, so a second run takes about a second.
# Needs only the npm registry and Debian apt. Run as root (or with sudo available).
# env: E2E_DIR (default <repo>/.e2e), E2E_SKIP_APT=1 (never call apt-get)
set -euo pipefail

CODE_SERVER_VERSION=4.100.3
PLAYWRIGHT_CORE_VERSION=1.65.1   # engines.node >=20
RG_PKG_VERSION=1.15.11           # @vscode/ripgrep pinned by code-server 4.100.3
RG_ASSET=ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz

REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
E2E_DIR=${E2E_DIR:-$REPO_ROOT/.e2e}
mkdir -p "$E2E_DIR"
E2E_DIR=$(cd "$E2E_DIR" && pwd)
CS_DIR=$E2E_DIR/code-server
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

# 3. code-server ----------------------------------------------------------------------------
# The stamp is written only after a complete install, and names the Node ABI the native modules
# (node-pty, kerberos, argon2) were built for.
CS_STAMP="$CS_DIR/.installed"
CS_WANT="code-server@$CODE_SERVER_VERSION node-abi=$(node -p process.versions.modules)"
if [ "$(cat "$CS_STAMP" 2>/dev/null)" != "$CS_WANT" ]; then
  log "installing $CS_WANT (about a minute)"
  rm -f "$CS_STAMP"
  mkdir -p "$CS_DIR"
  # own package.json first, or npm would walk up and install into the repository
  printf '{ "name": "e2e-code-server", "private": true, "version": "0.0.0" }\n' > "$CS_DIR/package.json"
  # npm_config_unsafe_perm: code-server's postinstall refuses root without it (npm 11 no longer sets it).
  # npm_config_yes: node-pty's postinstall runs `npx node-gyp`, which `yes=false` in ~/.npmrc cancels.
  (cd "$CS_DIR" && npm_config_unsafe_perm=true npm_config_yes=true \
    npm install --no-audit --no-fund --save-exact "code-server@$CODE_SERVER_VERSION")
  # any code-server invocation writes config under XDG dirs: keep them inside .e2e
  XDG_CONFIG_HOME="$TMPDIR/xdg-config" XDG_DATA_HOME="$TMPDIR/xdg-data" \
    "$CS_DIR/node_modules/.bin/code-server" --version
  echo "$CS_WANT" > "$CS_STAMP"
else
  log "$CS_WANT present"
fi

# 4. playwright-core (kept out of the project's package.json and lockfile) -------------------
PW_PKG=$TOOLS_DIR/node_modules/playwright-core/package.json
if [ "$(node -p "require('$PW_PKG').version" 2>/dev/null)" != "$PLAYWRIGHT_CORE_VERSION" ]; then
  log "installing playwright-core@$PLAYWRIGHT_CORE_VERSION"
  mkdir -p "$TOOLS_DIR"
  printf '{ "name": "e2e-tools", "private": true, "version": "0.0.0" }\n' > "$TOOLS_DIR/package.json"
  (cd "$TOOLS_DIR" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
    npm install --no-audit --no-fund --save-exact "playwright-core@$PLAYWRIGHT_CORE_VERSION")
else
  log "playwright-core@$PLAYWRIGHT_CORE_VERSION present"
fi

log "ready in $((SECONDS - T0)) s: $E2E_DIR"
