/**
 * Fixtures for the registry and installer tests: a local HTTP server (never the internet), a local
 * CONNECT proxy, and tar/zip archives written byte by byte so a test can put anything in them —
 * including the entries a safe unpacker must refuse.
 */
import { createHash } from 'node:crypto';
import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { crc32, deflateRawSync, gzipSync } from 'node:zlib';

export interface Route {
  status?: number;
  body?: Buffer | string;
  headers?: Record<string, string>;
}

export interface TestServer {
  url(path: string): string;
  routes: Map<string, Route>;
  /** Requests per path. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

export async function startServer(): Promise<TestServer> {
  const routes = new Map<string, Route>();
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes.get(path);
    if (!route) {
      res.writeHead(404).end('not found');
      return;
    }
    const body = typeof route.body === 'string' ? Buffer.from(route.body) : (route.body ?? Buffer.alloc(0));
    res.writeHead(route.status ?? 200, { 'content-length': String(body.length), ...route.headers }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    routes,
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A forward proxy that only does CONNECT (what https-proxy-agent speaks), recording the targets. */
export async function startConnectProxy(): Promise<{ url: string; targets: string[]; close(): Promise<void> }> {
  const targets: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    targets.push(req.url ?? '');
    const [host = '', port = '80'] = (req.url ?? '').split(':');
    const upstream = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    targets,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface ArchiveEntry {
  name: string;
  content?: string;
  /** Unix permission bits (default 0o644; directories 0o755). */
  mode?: number;
  type?: 'file' | 'dir' | 'symlink';
  /** For symlinks. */
  target?: string;
}

/** A ustar archive, gzipped. Names are written as given (no sanitising): tests need `../` too. */
export function makeTarGz(entries: ArchiveEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const data = Buffer.from(e.type === 'file' || !e.type ? (e.content ?? '') : '');
    const header = Buffer.alloc(512);
    header.write(e.name, 0, 100, 'utf8');
    header.write(octal(e.mode ?? (e.type === 'dir' ? 0o755 : 0o644), 8), 100, 'latin1');
    header.write(octal(0, 8), 108, 'latin1');
    header.write(octal(0, 8), 116, 'latin1');
    header.write(octal(data.length, 12), 124, 'latin1');
    header.write(octal(1_700_000_000, 12), 136, 'latin1');
    header.write(e.type === 'dir' ? '5' : e.type === 'symlink' ? '2' : '0', 156, 'latin1');
    if (e.target) header.write(e.target, 157, 100, 'utf8');
    header.write('ustar\u000000', 257, 'latin1');
    header.fill(' ', 148, 156);
    let sum = 0;
    for (const byte of header) sum += byte;
    header.write(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148, 'latin1');
    blocks.push(header, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\u0000`;
}

/** A zip made "on Unix" (modes in the external attributes), entries deflated. */
export function makeZip(entries: ArchiveEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const isDir = e.type === 'dir';
    const name = Buffer.from(isDir && !e.name.endsWith('/') ? `${e.name}/` : e.name, 'utf8');
    const raw = Buffer.from(e.type === 'symlink' ? (e.target ?? '') : (e.content ?? ''));
    const packed = deflateRawSync(raw);
    const crc = crc32(raw);
    const fileType = isDir ? 0o040000 : e.type === 'symlink' ? 0o120000 : 0o100000;
    const mode = fileType | (e.mode ?? (isDir ? 0o755 : 0o644));
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(raw.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE((mode << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** A small valid registry with one agent per distribution kind. */
export function sampleRegistry(archiveUrl = 'https://example.com/a.tar.gz', sha?: string): Record<string, unknown> {
  return {
    version: '1.0.0',
    agents: [
      {
        id: 'node-agent',
        name: 'Node Agent',
        version: '1.2.3',
        description: 'npx agent',
        authors: ['A'],
        license: 'MIT',
        distribution: { npx: { package: '@acme/node-agent@1.2.3', args: ['--acp'], env: { ACME_MODE: 'acp' } } },
      },
      { id: 'py-agent', name: 'Py Agent', version: '0.4.0', description: 'uvx agent', distribution: { uvx: { package: 'py-agent==0.4.0' } } },
      {
        id: 'bin-agent',
        name: 'Bin Agent',
        version: '2.0.0',
        description: 'binary agent',
        distribution: {
          binary: {
            'linux-x86_64': { archive: archiveUrl, cmd: './bin-agent', args: ['acp'], ...(sha ? { sha256: sha } : {}) },
            'darwin-x86_64': { archive: archiveUrl.replace('.tar.gz', '-mac.zip'), cmd: './bin-agent' },
            'windows-x86_64': { archive: archiveUrl.replace('.tar.gz', '-win.zip'), cmd: './bin-agent.exe' },
          },
        },
      },
    ],
    extensions: [],
  };
}
