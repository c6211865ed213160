/**
 * For tests that launch hosted agents through `launchConfigFor`, as the editor does: a scratch
 * extension folder whose dist/hostedAgent.js is the freshly built bridge, and the fake hosted
 * server, both set up once for the file and removed after it.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { startHostedServer, type HostedServer } from '../fixtures/hostedServer/server';
import { buildHostedAgent, HOSTED_AGENT_JS } from './hostedBridge';

export interface HostedExtension {
  /** The scratch folder: `ext/` is the extension, anything else the test's own. */
  dir: string;
  server: HostedServer;
}

export function useHostedExtension(prefix: string): HostedExtension {
  const rig = { dir: '', server: undefined as unknown as HostedServer };
  before(async () => {
    rig.dir = mkdtempSync(join(tmpdir(), prefix));
    await buildHostedAgent();
    mkdirSync(join(rig.dir, 'ext', 'dist'), { recursive: true });
    symlinkSync(HOSTED_AGENT_JS, join(rig.dir, 'ext', 'dist', 'hostedAgent.js'));
    rig.server = await startHostedServer();
  });
  after(async () => {
    await rig.server?.close();
    rmSync(rig.dir, { recursive: true, force: true });
  });
  return rig;
}
