#!/usr/bin/env bash
# README command 1 (`npm run start`): builds Tandem, packages the .vsix, installs it into a scratch
# code-server (VS Code 1.100.3 in the browser) with the demo agent selected, opens a demo workspace,
# prints the URL and stays in the foreground until Ctrl+C. PORT (default 8080) picks the port.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "[start] npm ci"
  npm ci --no-fund --no-audit
fi
bash scripts/setupE2e.sh
echo "[start] building and packaging the extension"
npm run --silent build
mkdir -p dist-vsix  # vsce -o does not create the folder
npm run --silent package >/dev/null

# A small demo workspace, created once and kept (the user may edit it).
ws="$root/.e2e/demo-workspace"
if [ ! -d "$ws" ]; then
  mkdir -p "$ws/src"
  cat > "$ws/README.md" <<'MD'
# Tandem demo workspace

Open the **Tandem** view in the activity bar and say hello to the demo agent.
MD
  cat > "$ws/src/greet.ts" <<'TS'
export function greet(name: string): string {
  return `Hello, ${name}!`;
}
TS
fi

# The CLI puts code-server in its own process group and kills that group on Ctrl+C or exit; the trap
# covers the CLI itself if this shell is signalled first.
node --import tsx test/e2e/harness/cli.ts serve "$ws" &
cli=$!
trap 'kill -TERM "$cli" 2>/dev/null || true; wait "$cli" 2>/dev/null || true' INT TERM HUP
wait "$cli"
