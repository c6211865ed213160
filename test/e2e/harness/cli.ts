// Command line for the scripts:
//   serve <workspace>        scripts/start.sh: code-server on 127.0.0.1:$PORT (default 8080) with the
//                            .vsix installed and the demo agent selected; runs until Ctrl+C.
//   run -- <command...>      scripts/test.sh: one code-server (with the .vsix) for a whole e2e run,
//                            handed to the test files through $TANDEM_E2E_SERVER; exits with the
//                            command's status and kills the server's process group in every case.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describeServer, sharedServerEnv, startCodeServer } from './codeServer';
import { e2eDir, vsixPath } from './paths';

async function serve(workspace: string): Promise<void> {
  const port = Number(process.env.PORT ?? 8080);
  const dir = join(e2eDir, 'start');
  // A scratch user-data dir per start, so the settings below are what the user sees.
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const server = await startCodeServer({
    port,
    dir,
    workspace,
    vsix: [vsixPath],
    userSettings: { 'tandem.defaultAgent': 'Tandem Demo' },
  });
  // Slashes left readable; the workbench decodes the query either way.
  const url = `${server.url}/?folder=${encodeURI(workspace)}`;
  console.log(`\nTandem is running in VS Code (code-server) at:\n\n    ${url}\n\nLogs: ${server.logFile}\nPress Ctrl+C to stop.`);
  // Stay in the foreground; processes.ts kills the server's group on Ctrl+C / exit.
  const poll = setInterval(() => {
    try {
      process.kill(-server.pid, 0);
    } catch {
      clearInterval(poll);
      console.error(`code-server stopped unexpectedly; see ${server.logFile}`);
      process.exit(1);
    }
  }, 1000);
}

async function run(command: string[]): Promise<void> {
  if (command.length === 0) throw new Error('usage: cli.ts run -- <command...>');
  const dir = join(e2eDir, 'run');
  rmSync(dir, { recursive: true, force: true });
  const started = Date.now();
  const server = await startCodeServer({ dir, vsix: [vsixPath] });
  console.log(`[e2e] code-server ${server.url} ready in ${((Date.now() - started) / 1000).toFixed(1)} s (logs: ${server.logFile})`);
  const child = spawn(command[0] ?? '', command.slice(1), {
    stdio: 'inherit',
    env: { ...process.env, [sharedServerEnv]: describeServer(server) },
  });
  const code = await new Promise<number>((resolve) => {
    child.once('exit', (status, signal) => resolve(status ?? (signal ? 1 : 0)));
    child.once('error', (err) => {
      console.error(err);
      resolve(1);
    });
  });
  await server.stop();
  process.exit(code);
}

const [mode, ...rest] = process.argv.slice(2);
const main =
  mode === 'serve' && rest[0]
    ? serve(rest[0])
    : mode === 'run'
      ? run(rest[0] === '--' ? rest.slice(1) : rest)
      : Promise.reject(new Error('usage: cli.ts serve <workspace> | run -- <command...>'));
main.catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
