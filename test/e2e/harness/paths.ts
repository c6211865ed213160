// Where the e2e pieces live. One place, so scripts/start.sh, scripts/test.sh and the tests agree.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** Git-ignored folder holding the code-server install (scripts/setupE2e.sh) and run scratch. */
export const e2eDir = join(repoRoot, '.e2e');
export const codeServerBin = join(e2eDir, 'server', 'node_modules', '.bin', 'code-server');
export const vsixPath = join(repoRoot, 'dist-vsix', 'tandem-acp.vsix');
/** Built by `npm run build` (non-production) from test/fixtures/scriptedAgent.ts. */
export const scriptedAgentJs = join(repoRoot, 'out', 'fixtures', 'scriptedAgent.js');
/** Built by `npm run build` (non-production) from test/e2e/host/index.ts. */
export const hostTestsDir = join(repoRoot, 'out', 'test');
export const chromiumPath = process.env.TANDEM_CHROMIUM ?? '/usr/bin/chromium';
export const extensionId = 'tandem.tandem-acp';

/** Throws a message that says which command produces the missing file. */
export function requireFile(path: string, hint: string): string {
  if (!existsSync(path)) throw new Error(`${path} is missing — ${hint}`);
  return path;
}
