// A code-server of one test file's own that the file can stop and start again on the same profile
// (user data, port): how restarts of VS Code are tested (the run's shared server cannot restart).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from './browser';
import { freePort, startCodeServer, type CodeServer } from './codeServer';
import type { E2e } from './e2e';
import { vsixPath } from './paths';

export interface RestartableE2e extends E2e {
  /** The profile's user data (Tandem's storage is under it). */
  readonly userDataDir: string;
  /**
   * Stops VS Code (its whole process group, extension host and agents included) and starts it again
   * on the same profile: at the same address, or at `port` (the same folder under another address).
   */
  restart(opts?: { port?: number }): Promise<void>;
}

export function useRestartableE2e(prefix: string): RestartableE2e {
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  let dir = '';
  let port = 0;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    port = await freePort();
    server = await startCodeServer({ dir, port, vsix: [vsixPath] });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    get server(): CodeServer {
      if (!server) throw new Error('code-server is not running');
      return server;
    },
    get browser(): Browser {
      if (!browser) throw new Error('Chromium is not running');
      return browser;
    },
    get userDataDir(): string {
      return join(dir, 'user-data');
    },
    async restart(opts: { port?: number } = {}): Promise<void> {
      await server?.stop();
      port = opts.port ?? port;
      server = await startCodeServer({ dir, port });
    },
  };
}
