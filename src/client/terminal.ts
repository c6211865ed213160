import type { ChildProcess } from 'node:child_process';
import { ProcessTree } from '../util/processTree';
import { OutputBuffer } from './outputBuffer';
import type { OutputPipe } from './outputPipe';
import type { TerminalEvent, TerminalExit } from './terminalEvents';

/** After the main process exits, how long to wait for its pipes to drain (a background child may hold them). */
const DRAIN_MS = 200;
/** While a command floods its output, output events go out at most this often… */
export const OUTPUT_EVENT_INTERVAL_MS = 16;
/**
 * …each with at most this much of what arrived since the previous one (older bytes are skipped and
 * the event says `truncated`). That is about what the panel keeps (512 Ki characters; the editor's
 * terminal keeps a thousand lines), so nobody misses the skipped part — while decoding all of a
 * 50 MB flood into strings, only for them to be dropped downstream, made the host's memory jump.
 * The agent's own output (`terminal/output`) is not affected: it is cut by its byte limit only.
 */
export const OUTPUT_EVENT_WINDOW_BYTES = 512 * 1024;

/**
 * One command started by `terminal/create`: its process tree, its bounded output and the output
 * events for the panel. The output is decoded lazily — for the agent when it asks, for the events
 * at most once per interval — so bytes that nobody will read are never turned into strings.
 */
export class Terminal {
  readonly buffer: OutputBuffer;
  exit: TerminalExit | undefined;
  readonly exited: Promise<TerminalExit>;
  released = false;
  private resolveExit!: (e: TerminalExit) => void;
  private readonly tree: ProcessTree;
  /** Stream offset up to which output events have gone out. */
  private streamed = 0;
  private lastEventAt = Number.NEGATIVE_INFINITY;
  private eventTimer: ReturnType<typeof setTimeout> | undefined;
  /** Resolves once every writer has closed the output pipe (holding no reference to the pipe). */
  private readonly drained: Promise<void>;

  constructor(
    readonly id: string,
    readonly sessionId: string,
    /** The command line as shown to the user. */
    readonly command: string,
    readonly cwd: string,
    readonly child: ChildProcess,
    limit: number,
    pipe: OutputPipe,
    private readonly emit: (e: TerminalEvent) => void,
  ) {
    // The buffer keeps at least what one output event may carry, even under a tiny agent limit.
    this.buffer = new OutputBuffer(limit, OUTPUT_EVENT_WINDOW_BYTES);
    this.tree = new ProcessTree(child);
    this.exited = new Promise((resolve) => (this.resolveExit = resolve));
    pipe.attach(child, (bytes) => this.onBytes(bytes));
    this.drained = pipe.drained;
    // Once the command has exited and nothing can write any more, the last event goes out and
    // only what the agent may still read stays in memory.
    void Promise.all([this.exited, this.drained]).then(() => {
      if (this.eventTimer) this.emitOutput(true);
      this.buffer.end();
    });
  }

  /**
   * Resolves once the command runs, or has failed to start. A missing or non-executable command is
   * reported as a shell would (output + 127/126) rather than as an RPC error: agents already know
   * how to read a failed command.
   */
  started(requested: string): Promise<void> {
    return new Promise<void>((resolve) => {
      let spawned = false;
      this.child.once('spawn', () => {
        spawned = true;
        this.watchExit();
        resolve();
      });
      // Kept for the child's whole life: an 'error' event without a listener would crash the host.
      this.child.on('error', (err: NodeJS.ErrnoException) => {
        if (spawned) return; // e.g. a failed kill of an already dead process: nothing to report
        this.onBytes(Buffer.from(`tandem: cannot run ${requested}: ${err.message}\n`));
        this.finish({ exitCode: err.code === 'ENOENT' ? 127 : 126, signal: null });
        resolve();
      });
    });
  }

  /** Stops the process tree (TERM, KILL after the grace); output and exit status stay readable. */
  kill(): void {
    this.tree.terminate();
  }

  /** Kills if still running and frees the output. */
  release(): void {
    if (this.released) return;
    this.kill();
    this.released = true;
    this.cancelEvent();
    this.buffer.clear();
  }

  private onBytes(bytes: Uint8Array): void {
    if (this.released) return;
    this.buffer.append(bytes);
    if (this.eventTimer) return;
    const wait = this.lastEventAt + OUTPUT_EVENT_INTERVAL_MS - performance.now();
    // The first output after a quiet spell goes out at once; a flood is sampled once per interval.
    if (wait <= 0) this.emitOutput(false);
    else this.eventTimer = setTimeout(() => this.emitOutput(false), wait);
  }

  /** Emits what arrived since the last output event (its last window, when more came). */
  private emitOutput(complete: boolean): void {
    this.cancelEvent();
    this.lastEventAt = performance.now();
    const from = this.streamed;
    const { text, start, end } = this.buffer.since(from, OUTPUT_EVENT_WINDOW_BYTES, complete);
    this.streamed = end;
    if (text.length === 0) return;
    const truncated = this.buffer.truncated || start > from;
    this.emit({ kind: 'output', terminalId: this.id, text, truncated });
  }

  private cancelEvent(): void {
    if (this.eventTimer) clearTimeout(this.eventTimer);
    this.eventTimer = undefined;
  }

  private watchExit(): void {
    let drained = false;
    void this.drained.then(() => (drained = true));
    this.child.once('exit', (code, signal) => {
      const exit: TerminalExit = { exitCode: code, signal: signal ?? null };
      if (drained) return this.finish(exit);
      // Output written just before exit may still be in the pipe; a background child that keeps
      // it open must not delay the exit status, so wait for the end of the output only briefly.
      const timer = setTimeout(() => this.finish(exit), DRAIN_MS);
      void this.drained.then(() => {
        clearTimeout(timer);
        this.finish(exit);
      });
    });
  }

  private finish(exit: TerminalExit): void {
    if (this.exit) return;
    this.exit = exit;
    // The rest of the output goes out before the exit, a trailing incomplete character included.
    if (!this.released) this.emitOutput(true);
    this.resolveExit(exit);
    // Also after release: the card keeps showing the command and should show how it ended.
    this.emit({ kind: 'exit', terminalId: this.id, ...exit });
  }
}
