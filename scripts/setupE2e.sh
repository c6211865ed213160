#!/usr/bin/env bash
# Installs what the end-to-end tests and `npm run start` need, idempotently:
#  - Debian packages (only those missing): chromium for Playwright, ripgrep to stand in for
#    @vscode/ripgrep's GitHub download, and the toolchain code-server's native modules compile with;
#  - code-server@4.100.3 (VS Code 1.100.3; later releases need Node 22+), from the pinned lock file in
#    test/e2e/server, into .e2e/server (git-ignored). A stamp keyed on the lock file's hash skips the
#    ~90 s / ~300 MB install when it is already there.
# Prints nothing but progress; exits non-zero on failure. Run as root on Debian 12 + Node 20 (CI), or as
# a user who already has the Debian packages.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
e2e="$root/.e2e"
src="$root/test/e2e/server"
dest="$e2e/server"
scratch="$e2e/scratch"

log() { printf '[setupE2e] %s\n' "$*"; }

# ---- Debian packages ---------------------------------------------------------------------------
packages=(chromium ripgrep libkrb5-dev pkg-config build-essential python3 curl)
need=()
for pkg in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || need+=("$pkg")
done
if [ "${#need[@]}" -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    # Not fatal: the machine may provide them otherwise; the install below says what is missing.
    echo "[setupE2e] warning: Debian packages not installed: ${need[*]} (run as root to install them)" >&2
  else
    log "apt-get install ${need[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  fi
fi

# ---- the November 2026 ACP adapters ------------------------------------------------------------
# claude-agent-acp 0.101 and codex-acp 2.6 (~840 MB with their native CLIs: too large for
# devDependencies), from the pinned lock file in test/e2e/adapters, into .e2e/adapters; the real-agent
# tests take them from there. A stamp keyed on the lock file's hash skips the install.
adapters_src="$root/test/e2e/adapters"
adapters="$e2e/adapters"
adapters_hash="$(cat "$adapters_src/package.json" "$adapters_src/package-lock.json" | sha256sum | cut -c1-16)"
if [ -f "$adapters/.installed-$adapters_hash" ]; then
  log "ACP adapters already installed ($adapters_hash)"
else
  log "installing the ACP adapters into $adapters"
  rm -rf "$adapters"
  mkdir -p "$adapters"
  cp "$adapters_src/package.json" "$adapters_src/package-lock.json" "$adapters/"
  (cd "$adapters" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  touch "$adapters/.installed-$adapters_hash"
fi

# ---- code-server -------------------------------------------------------------------------------
hash="$(cat "$src/package.json" "$src/package-lock.json" | sha256sum | cut -c1-16)"
stamp="$dest/.installed-$hash"
if [ -f "$stamp" ] && [ -x "$dest/node_modules/.bin/code-server" ]; then
  log "code-server already installed ($hash)"
  exit 0
fi

log "installing code-server into $dest (takes ~90 s)"
rm -rf "$dest" "$scratch"
mkdir -p "$dest" "$scratch/config" "$scratch/data" "$scratch/cache" "$scratch/tmp"
cp "$src/package.json" "$src/package-lock.json" "$dest/"

# @vscode/ripgrep's postinstall downloads rg from GitHub, which is unreachable here: pre-seed the cache
# it checks first with Debian's rg, packed under the exact name it looks for.
rgcache="$scratch/tmp/vscode-ripgrep-cache-1.15.11"
mkdir -p "$rgcache"
rgstage="$(mktemp -d "$scratch/tmp/rg.XXXXXX")"
cp "$(command -v rg)" "$rgstage/rg"
tar -czf "$rgcache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$rgstage" rg
rm -rf "$rgstage"

(
  cd "$dest"
  # unsafe_perm: code-server's postinstall refuses to run as root without it.
  # yes: node-pty's postinstall runs `npx node-gyp`, which would otherwise prompt (no stdin in CI).
  # nodedir: build native modules against the machine's Node headers (no header download).
  # allowScripts in package.json approves code-server's and argon2's install scripts: npm 11 only
  # warns about unapproved ones today, and a later npm will skip them — code-server's postinstall
  # (which installs VS Code's own modules) must run.
  export npm_config_unsafe_perm=true npm_config_yes=true npm_config_nodedir=/usr \
    npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false \
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
    XDG_CONFIG_HOME="$scratch/config" XDG_DATA_HOME="$scratch/data" XDG_CACHE_HOME="$scratch/cache" \
    TMPDIR="$scratch/tmp"
  npm ci --no-progress --loglevel=error
)

# The postinstall exits 0 even when parts of it fail: check what the server cannot run without.
vscode="$dest/node_modules/code-server/lib/vscode"
for f in "$vscode/node_modules/@vscode/ripgrep/bin/rg" "$vscode/out/server-main.js"; do
  [ -e "$f" ] || { echo "[setupE2e] code-server install incomplete: $f is missing" >&2; exit 1; }
done
"$dest/node_modules/.bin/code-server" --version >/dev/null
touch "$stamp"
log "code-server $("$dest/node_modules/.bin/code-server" --version | head -1) ready"
