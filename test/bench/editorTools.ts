/**
 * Row 15: the `tandem` MCP server's cost per call, as an agent's MCP client pays it — a real MCP SDK
 * client over the loopback Streamable HTTP endpoint (bearer token, Host check, one stateless SDK
 * server per POST), the schema check, the tool and its size cap. 15: `read_file` of a 2,000-line
 * file; 15b: `diagnostics` with 5,000 Problems (cut to 200 items). The editor's answers come from
 * memory: what is measured is Tandem's part, not a language server's.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { PathPolicy } from '../../src/client/pathPolicy';
import { SILENT_EDITOR } from '../../src/mcp/checkToolsPort';
import type { EditorDiagnostic, EditorToolsPort } from '../../src/mcp/editorToolsPort';
import { LoopbackMcpServer } from '../../src/mcp/loopbackHttp';
import { EditorToolRegistry } from '../../src/mcp/toolRegistry';
import { row, wallNow, type Row } from './stats';

const CALLS = 50;

function port(dir: string, problems: EditorDiagnostic[]): EditorToolsPort {
  return {
    ...SILENT_EDITOR,
    paths: new PathPolicy({ roots: () => [dir], allowOutside: () => false, askOutside: async () => false }),
    diagnostics: async () => problems,
    readText: async (path) => readFileSync(path, 'utf8'),
    writeText: async () => undefined,
    runCommand: async () => ({ exitCode: 0, output: '', truncated: false }),
  };
}

/** Median-ready samples: ms per call, one sample per run of CALLS calls. */
export async function editorToolsRows(runs: number): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tandem-bench-mcp-'));
  const lines = Array.from({ length: 2000 }, (_, i) => `export const value${i} = compute(${i}, 'line ${i}');`);
  writeFileSync(join(dir, 'big.ts'), lines.join('\n') + '\n');
  const at = (line: number) => ({ start: { line, character: 0 }, end: { line, character: 5 } });
  const problems: EditorDiagnostic[] = Array.from({ length: 5000 }, (_, i) => ({
    path: join(dir, `f${i % 50}.ts`),
    severity: 'error',
    range: at(i % 2000),
    message: `Problem ${i}: Type 'string' is not assignable to type 'number'.`,
    source: 'ts',
  }));
  const server = await LoopbackMcpServer.start({ registry: new EditorToolRegistry(port(dir, problems)), version: 'bench' });
  const headers = Object.fromEntries(server.declaration().headers.map((h) => [h.name, h.value]));
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }));
  const timed = async (name: string, args: Record<string, unknown>): Promise<number[]> => {
    await client.callTool({ name, arguments: args }); // warm
    const samples: number[] = [];
    for (let r = 0; r < runs; r++) {
      const start = wallNow();
      for (let i = 0; i < CALLS; i++) await client.callTool({ name, arguments: args });
      samples.push((wallNow() - start) / CALLS);
    }
    return samples;
  };
  try {
    const read = await timed('read_file', { path: 'big.ts' });
    const diagnostics = await timed('diagnostics', {});
    return [
      row(
        '15. Editor tools: read_file (2,000 lines) over loopback HTTP, per call',
        read,
        'ms',
        { kind: 'max', value: 20 },
        `${CALLS} calls per run, a real MCP SDK client`,
      ),
      row(
        '15b. Editor tools: diagnostics (5,000 Problems, capped), per call',
        diagnostics,
        'ms',
        { kind: 'max', value: 30 },
        'schema check, 200-item cap and JSON for the model included',
      ),
    ];
  } finally {
    await client.close();
    server.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}
