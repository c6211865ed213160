// The shared fixture of every e2e test file: one code-server (the one scripts/test.sh started for the
// whole run, or one for this file), one headless Chromium, serial tests, and on failure a screenshot
// plus the panel's DOM saved to a temp folder whose path is printed.
import { after, before, test } from 'node:test';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from './browser';
import { attachedCodeServer, startCodeServer } from './codeServer';
import type { CodeServer, StartOptions } from './codeServer';
import { vsixPath } from './paths';
import { openTandemView, openWorkbench } from './workbench';
import type { Chat, Workbench } from './workbench';
import { createWorkspace, scriptedAgent } from './workspace';
import type { AgentScript, ScriptedAgent, Workspace, WorkspaceOptions } from './workspace';

/** Set when a scenario failed: scratch folders are then kept, so the printed paths stay valid. */
let failed = false;

export interface E2e {
  readonly server: CodeServer;
  readonly browser: Browser;
}

/**
 * Registers before/after hooks in the calling test file and returns the live fixture. `ownServer`
 * starts a code-server for this file alone with those options (e.g. workspace trust on) instead of
 * attaching to the run's shared one.
 */
export function useE2e(opts: { ownServer?: Omit<StartOptions, 'dir' | 'vsix'> } = {}): E2e {
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  let ownDir: string | undefined;
  before(async () => {
    server = opts.ownServer ? undefined : attachedCodeServer();
    if (!server) {
      ownDir = mkdtempSync(join(tmpdir(), 'tandem-e2e-'));
      server = await startCodeServer({ ...opts.ownServer, dir: ownDir, vsix: [vsixPath] });
    }
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close().catch(() => {});
    await server?.stop();
    // Keep the scratch folder (logs) when something failed, so the printed paths stay valid.
    if (ownDir && !failed) rmSync(ownDir, { recursive: true, force: true });
  });
  return {
    get server(): CodeServer {
      if (!server) throw new Error('code-server is not started (useE2e before hook did not run)');
      return server;
    },
    get browser(): Browser {
      if (!browser) throw new Error('Chromium is not started (useE2e before hook did not run)');
      return browser;
    },
  };
}

/** What a scenario opened, so a failure can be documented and everything closed afterwards. */
export class Scenario {
  private readonly workbenches: Workbench[] = [];
  private readonly chats: Chat[] = [];
  private readonly files: string[] = [];
  private readonly dirs: string[] = [];

  constructor(private readonly e2e: E2e) {}

  /** A temp workspace folder, removed after the scenario unless it failed. */
  workspace(options: WorkspaceOptions = {}): Workspace {
    const ws = createWorkspace(options);
    this.dirs.push(ws.dir);
    return ws;
  }

  /** A scripted agent whose received-messages log is kept with the failure artifacts. */
  agent(script: AgentScript): ScriptedAgent {
    const agent = scriptedAgent(script);
    this.dirs.push(agent.dir);
    this.keep(agent.logFile);
    return agent;
  }

  /** Opens `workspace` in a fresh browser context and the Tandem view in it. */
  async open(workspace: Workspace): Promise<{ workbench: Workbench; chat: Chat }> {
    const workbench = await openWorkbench(this.e2e.browser, this.e2e.server, workspace.dir);
    this.workbenches.push(workbench);
    const chat = await openTandemView(workbench.page);
    this.chats.push(chat);
    return { workbench, chat };
  }

  /** A file worth keeping when the scenario fails (e.g. a scripted agent's received-messages log). */
  keep(file: string): void {
    this.files.push(file);
  }

  async saveArtifacts(name: string): Promise<string> {
    const dir = mkdtempSync(join(tmpdir(), `tandem-e2e-failure-${name.replace(/[^a-z0-9]+/gi, '-').slice(0, 40)}-`));
    for (const [i, wb] of this.workbenches.entries()) {
      await wb.page.screenshot({ path: join(dir, `workbench-${i}.png`) }).catch(() => {});
    }
    for (const [i, chat] of this.chats.entries()) {
      const html = await chat.frame
        .locator('body')
        .innerHTML({ timeout: 2000 })
        .catch((e: Error) => `unavailable: ${e.message}`);
      writeFileSync(join(dir, `panel-${i}.html`), html);
    }
    for (const [i, f] of this.files.entries()) if (existsSync(f)) cpSync(f, join(dir, `${i}-${f.split('/').pop() ?? 'file'}`));
    const where = [
      `code-server log: ${this.e2e.server.logFile}`,
      `extension host logs: ${join(this.e2e.server.userDataDir, 'logs')}`,
      ...this.dirs.map((d) => `kept: ${d}`),
    ];
    writeFileSync(join(dir, 'where.txt'), where.join('\n') + '\n');
    return dir;
  }

  async dispose(passed: boolean): Promise<void> {
    for (const wb of this.workbenches) await wb.close().catch(() => {});
    if (passed) for (const d of this.dirs) rmSync(d, { recursive: true, force: true });
  }
}

/**
 * Attempts per scenario (TANDEM_E2E_ATTEMPTS, default 2). CI machines have 2 slow cores shared with
 * VS Code, Chromium and the agents, and a wait that is ample here can fall short there once in a few
 * hundred scenarios: a failed scenario runs once more from a fresh workbench. A second failure fails
 * the test; a pass on the second attempt is printed as "[e2e] flaky: …" (scripts/test.sh lists them)
 * with the first failure's artifacts, so flaky waits get fixed rather than hidden.
 */
const attempts = Math.max(1, Number(process.env.TANDEM_E2E_ATTEMPTS ?? 2) || 1);

/** A serial node:test test whose failures leave a screenshot and the panel DOM behind. */
export function scenario(e2e: E2e, name: string, body: (s: Scenario) => Promise<void>, timeoutMs = 120_000): void {
  test(name, { timeout: timeoutMs * attempts }, async () => {
    for (let attempt = 1; ; attempt++) {
      const s = new Scenario(e2e);
      let passed = false;
      let timer: NodeJS.Timeout | undefined;
      try {
        // Each attempt gets the whole budget of one (the test's own timeout covers all of them).
        const overdue = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`attempt ${attempt} ran past ${timeoutMs} ms`)), timeoutMs);
        });
        await Promise.race([body(s), overdue]);
        passed = true;
        if (attempt > 1) console.error(`[e2e] flaky: "${name}" passed on attempt ${attempt} of ${attempts}`);
        return;
      } catch (err) {
        failed = true;
        const dir = await s.saveArtifacts(name);
        const last = attempt >= attempts;
        console.error(
          `[e2e] "${name}" failed${last ? '' : ` (attempt ${attempt} of ${attempts}; running it again)`}; screenshot, panel DOM and logs in ${dir}`,
        );
        if (last) throw err;
        console.error(`[e2e] attempt ${attempt} failed with: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      } finally {
        clearTimeout(timer);
        await s.dispose(passed);
      }
    }
  });
}
