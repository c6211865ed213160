// Mocha inside the real remote extension host, no clicking: the workbench URL's `payload` carries
// extensionDevelopmentPath/extensionTestsPath (code-server rejects the CLI flags), and the workbench
// reports through window.codeAutomationLog / codeAutomationExit. With extensionDevelopmentPath the
// repo's own build (dist/, out/test/) is loaded, overriding the installed .vsix.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { format } from 'node:util';
import type { Browser } from 'playwright-core';
import type { CodeServer } from './codeServer';
import { hostTestsDir, repoRoot, requireFile } from './paths';
import { workbenchUrl } from './workbench';

export interface HostTestResult {
  exitCode: number;
  /** Everything the extension host's test run logged (mocha's reporter output included). */
  log: string;
  /** Where the workbench's log files were saved (written when the run ends). */
  logsDir: string;
}

export interface HostTestOptions {
  /** Folder holding index.js (exports run()); defaults to the build's out/test. */
  testsPath?: string;
  /** Extension folder to load in development mode; defaults to the repo root. */
  extensionPath?: string;
  timeoutMs?: number;
  /** Folder to write the workbench's log files to; defaults to a `host-logs` folder beside the server's log. */
  logsDir?: string;
}

export async function runHostTests(browser: Browser, server: CodeServer, workspace: string, options: HostTestOptions = {}): Promise<HostTestResult> {
  const extensionPath = options.extensionPath ?? repoRoot;
  const testsPath = options.testsPath ?? hostTestsDir;
  requireFile(join(testsPath, 'index.js'), 'run `npm run build`');
  const remote = (p: string): string => `vscode-remote://127.0.0.1:${server.port}${p}`;
  const payload: Array<[string, string]> = [
    ['extensionDevelopmentPath', remote(extensionPath)],
    ['extensionTestsPath', remote(testsPath)],
  ];
  const logsDir = options.logsDir ?? join(dirname(server.logFile), `host-logs-${Date.now()}`);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const lines: string[] = [];
    let finish: (code: number) => void = () => {};
    const exited = new Promise<number>((resolve) => (finish = resolve));
    await page.exposeFunction('codeAutomationLog', (level: string, message: unknown) => {
      // The extension host forwards console calls as [format, ...args].
      const text = Array.isArray(message) ? format(...(message as unknown[])) : String(message);
      lines.push(level === 'info' ? text : `[${level}] ${text}`);
    });
    await page.exposeFunction('codeAutomationExit', (code: number, logs?: Array<{ relativePath: string; contents: string }>) => {
      for (const { relativePath, contents } of logs ?? []) {
        const file = join(logsDir, relativePath);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, contents);
      }
      finish(code);
    });
    page.on('pageerror', (err) => lines.push(`[pageerror] ${err.message}`));
    await page.goto(workbenchUrl(server, workspace, payload));
    const timeoutMs = options.timeoutMs ?? 180_000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<number>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`extension host tests did not finish within ${timeoutMs} ms:\n${lines.join('\n')}`)), timeoutMs);
    });
    try {
      const exitCode = await Promise.race([exited, timeout]);
      return { exitCode, log: lines.join('\n'), logsDir };
    } finally {
      clearTimeout(timer);
    }
  } finally {
    await context.close();
  }
}
