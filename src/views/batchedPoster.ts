import type { HostMessage } from '../protocol/messages';
import { MessageBatch } from './messageBatch';

/**
 * Posts host messages to the panel at most once per interval, merged by MessageBatch. The first
 * message after a quiet spell goes out on the next tick (an isolated update, such as a big diff or
 * the first streamed chunk, is not held back); a burst is gathered until the interval since the
 * last post has passed, so streaming costs about one post per frame.
 */
export class BatchedPoster {
  private readonly batch = new MessageBatch();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastPost = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly post: (message: HostMessage) => void,
    private readonly intervalMs = 16,
  ) {}

  /** True when nothing is waiting to be posted. */
  get idle(): boolean {
    return this.timer === undefined && this.batch.isEmpty;
  }

  push(message: HostMessage): void {
    this.batch.push(message);
    if (this.timer) return;
    const wait = Math.max(0, this.lastPost + this.intervalMs - Date.now());
    this.timer = setTimeout(() => this.flush(), wait);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const messages = this.batch.take();
    if (messages.length === 0) return;
    this.lastPost = Date.now();
    this.post(messages.length === 1 ? messages[0] : { type: 'batch', messages });
  }

  /** Drops what is waiting (a snapshot is about to carry it). */
  discard(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.batch.take();
  }
}
