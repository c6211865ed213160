#!/usr/bin/env bash
# Regenerates the committed images from the real panel:
#  - media/icon.png from media/icon.svg (Debian's Chromium draws it; test/e2e/screenshotsIcon.ts);
#  - media/screenshots/*.png (README) and media/walkthrough/*.png (walkthrough, shipped in the .vsix):
#    the packaged extension in code-server, driven by Playwright with the demo agent
#    (test/e2e/screenshots.ts, run through the e2e harness like the e2e tests).
# Needs what the e2e tests need (`bash scripts/setupE2e.sh`). It packages the .vsix and starts
# code-server: on a machine shared with other e2e runs, take their lock around it, e.g.
#   flock /tmp/tandem-e2e.lock bash scripts/screenshots.sh
# Then run `npm run package` again so the .vsix carries the new walkthrough images.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

bash scripts/setupE2e.sh
echo "[screenshots] icon"
node --import tsx test/e2e/screenshotsIcon.ts
echo "[screenshots] building and packaging the extension"
npm run --silent build  # the scripted agent for the sign-in card (out/fixtures)
mkdir -p dist-vsix      # vsce -o does not create the folder
npm run --silent package >/dev/null
node --import tsx test/e2e/harness/cli.ts run -- node --import tsx test/e2e/screenshots.ts
ls -l media/icon.png media/screenshots/*.png media/walkthrough/*.png
