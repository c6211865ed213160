import type { ChildProcess, StdioOptions } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

/** One read from the pipe at most (what libuv asks for per read anyway). */
const READ_BYTES = 64 * 1024;
/** sun_path is 104 bytes on macOS, 108 on Linux; longer socket paths cannot be bound. */
const MAX_SOCKET_PATH = 100;

/** Receives output; `bytes` is only valid during the call (the memory is reused for the next read). */
export type BytesSink = (bytes: Uint8Array) => void;

/**
 * Where a terminal's stdout and stderr go. Node's own pipes hand over every read in a freshly
 * allocated 64 KiB buffer that only garbage collection frees: a command printing 50 MB leaves tens
 * of megabytes of them behind before a collection runs. On POSIX both streams therefore go into one
 * socket that we read with a single reused buffer (`onread`); it is what Node's 'pipe' is there
 * anyway (a Unix socket pair), and it keeps stdout and stderr in the order they were written.
 * Windows (and any failure to set the socket up) falls back to Node's pipes.
 */
export interface OutputPipe {
  /** `stdio` for spawn: stdin ignored, stdout and stderr into the pipe. */
  readonly stdio: StdioOptions;
  /** Call right after spawn returned: closes our copy of the child's end and starts delivering output. */
  attach(child: ChildProcess, sink: BytesSink): void;
  /** Resolves once every writer has closed the pipe: the command and whatever it left running. */
  readonly drained: Promise<void>;
  /** Closes our ends (spawn threw, so `attach` never runs). */
  dispose(): void;
}

export async function openOutputPipe(platform: NodeJS.Platform = process.platform): Promise<OutputPipe> {
  if (platform !== 'win32') {
    const pair = await socketPair().catch(() => undefined);
    if (pair) return new SocketOutputPipe(pair.reader, pair.writer, pair.setSink);
  }
  return new NodeOutputPipe();
}

class SocketOutputPipe implements OutputPipe {
  readonly stdio: StdioOptions;
  readonly drained: Promise<void>;

  constructor(
    private readonly reader: net.Socket,
    private readonly writer: net.Socket,
    private readonly setSink: (sink: BytesSink) => void,
  ) {
    this.stdio = ['ignore', writer, writer];
    this.drained = new Promise((resolve) => reader.once('close', () => resolve()));
  }

  attach(_child: ChildProcess, sink: BytesSink): void {
    this.setSink(sink);
    // The child has its own copy of the socket now; ours would keep the pipe open forever.
    this.writer.destroy();
  }

  dispose(): void {
    this.writer.destroy();
    this.reader.destroy();
  }
}

class NodeOutputPipe implements OutputPipe {
  readonly stdio: StdioOptions = ['ignore', 'pipe', 'pipe'];
  readonly drained: Promise<void>;
  private resolveDrained!: () => void;

  constructor() {
    this.drained = new Promise((resolve) => (this.resolveDrained = resolve));
  }

  attach(child: ChildProcess, sink: BytesSink): void {
    child.stdout?.on('data', sink);
    child.stderr?.on('data', sink);
    // 'close' comes once the process has exited and both pipes are closed.
    child.once('close', () => this.resolveDrained());
  }

  dispose(): void {
    this.resolveDrained();
  }
}

/**
 * A connected pair of Unix sockets: `writer` for the child's stdout/stderr, `reader` for us, reading
 * into one buffer. Node has no socketpair(), so a listener in a private directory (mode 0700: no
 * other user can connect first) accepts our own connection and goes away again.
 */
async function socketPair(): Promise<{ reader: net.Socket; writer: net.Socket; setSink: (sink: BytesSink) => void }> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'tandem-out-'));
  const address = path.join(dir, 's');
  const server = net.createServer({ pauseOnConnect: true });
  try {
    if (Buffer.byteLength(address) > MAX_SOCKET_PATH) throw new Error('socket path too long');
    await new Promise<void>((resolve, reject) => {
      server.on('error', reject);
      server.listen(address, resolve);
    });
    const buffer = Buffer.allocUnsafeSlow(READ_BYTES);
    let sink: BytesSink = () => undefined;
    const accepted = new Promise<net.Socket>((resolve) => server.once('connection', resolve));
    const reader = net.connect({
      path: address,
      onread: {
        buffer,
        callback: (n: number, buf: Uint8Array) => {
          sink(buf.subarray(0, n));
          return true; // keep reading: the sink copies, there is no back-pressure to apply
        },
      },
    });
    // Errors end in 'close'; without a listener they would crash the host.
    reader.on('error', () => undefined);
    const refused = new Promise<never>((_, reject) => reader.once('close', () => reject(new Error('connection failed'))));
    const writer = await Promise.race([accepted, refused]);
    return { reader, writer, setSink: (s) => (sink = s) };
  } finally {
    server.close();
    await fs.promises.rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}
