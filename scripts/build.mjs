// Bundles the extension host, the webview, the demo agent and the hosted-agent bridge with esbuild: one file each, so the
// .vsix ships no node_modules. esbuild because it is the bundler VS Code's own samples use, is fast
// enough to rebuild in tests, and handles the ESM-only ACP SDK inside a CommonJS extension bundle.
import * as esbuild from 'esbuild';
import { cpSync, mkdirSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const production = process.argv.includes('--production');
const common = { bundle: true, sourcemap: production ? false : 'linked', minify: production, logLevel: 'warning', absWorkingDir: root };

mkdirSync(join(root, 'dist'), { recursive: true });
// `ws` (the WebSocket of remote agents: Node 20 has no global one) requires two optional native
// add-ons inside try/catch and works without them; they are never installed, so esbuild must not
// try to resolve them.
const node = { platform: 'node', format: 'cjs', target: 'node20', external: ['bufferutil', 'utf-8-validate'] };
const targets = [
  { ...node, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: [...node.external, 'vscode'] },
  { ...node, entryPoints: ['src/hostMain.ts'], outfile: 'dist/host.js', external: [...node.external, 'vscode'] },
  { ...node, entryPoints: ['src/demoAgent/main.ts'], outfile: 'dist/demoAgent.js' },
  // Ends what Tandem started when the extension host is gone, however it goes (src/supervisor).
  { ...node, entryPoints: ['src/supervisor/main.ts'], outfile: 'dist/supervisor.js' },
  // The hosted-agent bridge (ACP on stdio, a hosted chat API over HTTP), shipped like the demo agent.
  { ...node, entryPoints: ['src/hostedAgent/main.ts'], outfile: 'dist/hostedAgent.js' },
  { ...node, entryPoints: ['src/replayAgent/main.ts'], outfile: 'dist/replayAgent.js' },
  // The tandem MCP server's stdio form: relays an agent's stdio MCP client to the session's loopback endpoint.
  { ...node, entryPoints: ['src/mcp/stdioBridge.ts'], outfile: 'dist/mcpStdioBridge.js' },
  {
    entryPoints: ['webview/app/main.ts'],
    outfile: 'dist/webview.js',
    platform: 'browser',
    format: 'iife',
    target: 'chrome120',
    loader: { '.css': 'text', '.ttf': 'dataurl' },
  },
  // The code highlighter (highlight.js and its languages), loaded by the panel on first use with
  // its script nonce: kept out of dist/webview.js so the panel's start does not pay for it.
  { entryPoints: ['webview/highlighter/main.ts'], outfile: 'dist/codeHighlighter.js', platform: 'browser', format: 'iife', target: 'chrome120' },
  { entryPoints: ['webview/inspector/main.ts'], outfile: 'dist/inspector.js', platform: 'browser', format: 'iife', target: 'chrome120' },
];
if (!production) {
  // Test-only builds, never shipped: mocha suites that run inside the real extension host (e2e
  // "payload" method) and the scripted agent that tests spawn as a real process.
  targets.push({ ...node, entryPoints: ['test/e2e/host/index.ts'], outfile: 'out/test/index.js', external: [...node.external, 'vscode', 'mocha'] });
  targets.push({ ...node, entryPoints: ['test/fixtures/scriptedAgent.ts'], outfile: 'out/fixtures/scriptedAgent.js' });
  // The scripted agent behind the SDK's WebSocket / Streamable HTTP server (remote agents).
  targets.push({ ...node, entryPoints: ['test/fixtures/remoteAgentServer.ts'], outfile: 'out/fixtures/remoteAgentServer.js' });
}
// Entries not written yet are skipped so each part can be built while others are in progress.
await Promise.all(targets.filter((t) => existsSync(join(root, t.entryPoints[0]))).map((t) => esbuild.build({ ...common, ...t })));
// Codicons font + CSS are loaded by the webview from dist/codicons (localResourceRoots).
cpSync(join(root, 'node_modules/@vscode/codicons/dist'), join(root, 'dist/codicons'), { recursive: true });
