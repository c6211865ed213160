import type { WireWarningView } from '../protocol/inspectorMessages';
import { MessageChecker } from './messageCheck';
import { parseRecord, type WireRecord } from './wireRecord';
import type { WireListener, WireStore } from './wireStore';

/** How long after a message arrives the checks start (a burst is checked in one go, after it). */
const START_DELAY_MS = 150;
/** Longest slice of checking before the event loop gets its turn back. */
const SLICE_MS = 6;
/**
 * While messages keep coming (one in the last QUIET_MS), the checks take one short slice per
 * FLOOD_INTERVAL_MS — about 2% of the thread — so a stream is not slowed; they catch up once it
 * is quiet.
 */
const QUIET_MS = 250;
const FLOOD_SLICE_MS = 4;
const FLOOD_INTERVAL_MS = 200;
/** Warnings kept per agent as examples for reports. */
const SAMPLES = 8;

/** The conformance of one agent's traffic in this window. */
export interface ConformanceSummary {
  /** Messages from the agent that were checked. */
  checked: number;
  warnings: number;
  errors: number;
  /** How many findings per rule. */
  byRule: Record<string, number>;
  /** The first findings, as text. */
  samples: string[];
}

export const emptySummary = (): ConformanceSummary => ({ checked: 0, warnings: 0, errors: 0, byRule: {}, samples: [] });

/** Adds findings to a summary (also used for the agent check's own handshake). */
export function addToSummary(summary: ConformanceSummary, warnings: readonly WireWarningView[]): void {
  for (const w of warnings) {
    if (w.severity === 'error') summary.errors++;
    else summary.warnings++;
    summary.byRule[w.rule] = (summary.byRule[w.rule] ?? 0) + 1;
    if (summary.samples.length < SAMPLES) summary.samples.push(w.text);
  }
}

/**
 * Checks every message the store records, off the streaming path: a message only joins a queue
 * as it arrives; the checks run a moment later in slices of a few milliseconds, between which the
 * event loop serves everything else. Each message is parsed again there (the store keeps only the
 * line). Findings are kept by message, counted per agent, and told to listeners (the inspector).
 * `drain()` finishes the queue at once, for a report that must be complete.
 */
export class ConformanceMonitor implements WireListener {
  private queue: WireRecord[] = [];
  private queueHead = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastAppend = 0;
  private readonly checker = new MessageChecker();
  private readonly bySeq = new Map<number, WireWarningView[]>();
  private readonly perAgent = new Map<string, ConformanceSummary>();
  private readonly listeners = new Set<(warnings: WireWarningView[]) => void>();
  private readonly subscription: { dispose(): void };

  constructor(
    private readonly store: WireStore,
    private readonly opts: { startDelayMs?: number; sliceMs?: number; quietMs?: number } = {},
  ) {
    this.subscription = store.listen(this);
  }

  appended(record: WireRecord): void {
    this.queue.push(record);
    this.lastAppend = performance.now();
    if (this.timer === undefined) this.schedule(this.opts.startDelayMs ?? START_DELAY_MS);
  }

  /** Findings of one message (empty when none, or not checked yet). */
  warningsOf(seq: number): readonly WireWarningView[] {
    return this.bySeq.get(seq) ?? [];
  }

  /** Every finding still kept, oldest message first. */
  allWarnings(): WireWarningView[] {
    return [...this.bySeq.values()].flat();
  }

  /** One agent's conformance so far; every agent's together when `agent` is undefined. */
  summary(agent?: string): ConformanceSummary {
    if (agent !== undefined) return this.perAgent.get(agent) ?? emptySummary();
    const all = emptySummary();
    for (const s of this.perAgent.values()) {
      all.checked += s.checked;
      all.warnings += s.warnings;
      all.errors += s.errors;
      for (const [rule, n] of Object.entries(s.byRule)) all.byRule[rule] = (all.byRule[rule] ?? 0) + n;
      all.samples.push(...s.samples.slice(0, Math.max(0, SAMPLES - all.samples.length)));
    }
    return all;
  }

  onWarnings(listener: (warnings: WireWarningView[]) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** Checks what is queued, for at most `budgetMs`; true when the queue is empty. */
  drain(budgetMs = Number.POSITIVE_INFINITY): boolean {
    const end = performance.now() + budgetMs;
    const found: WireWarningView[] = [];
    let n = 0;
    while (this.queueHead < this.queue.length) {
      const record = this.queue[this.queueHead++];
      found.push(...this.checkOne(record));
      // performance.now() every few messages: reading the clock costs more than checking a chunk.
      if (++n % 16 === 0 && performance.now() >= end) break;
    }
    if (this.queueHead >= this.queue.length) {
      this.queue = [];
      this.queueHead = 0;
    } else if (this.queueHead > 4096) {
      this.queue = this.queue.slice(this.queueHead);
      this.queueHead = 0;
    }
    this.prune();
    if (found.length > 0) for (const listener of this.listeners) listener(found);
    return this.queue.length === 0;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.subscription.dispose();
    this.listeners.clear();
  }

  private checkOne(record: WireRecord): WireWarningView[] {
    // MCP's own JSON-RPC (tools/list, tools/call, its initialize) is not ACP: no rule of ACP applies.
    if (record.channel === 'mcp') return [];
    const msg = parseRecord(record);
    if (!msg) return [];
    const findings = this.checker.check(record, msg);
    if (record.dir !== 'in') return [];
    let summary = this.perAgent.get(record.agent);
    if (!summary) this.perAgent.set(record.agent, (summary = emptySummary()));
    summary.checked++;
    if (findings.length === 0) return [];
    const warnings = findings.map((f) => ({ seq: record.seq, rule: f.rule, severity: f.severity, text: f.text }));
    this.bySeq.set(record.seq, warnings);
    addToSummary(summary, warnings);
    return warnings;
  }

  /** Forgets the findings of messages the store no longer keeps (they are still counted). */
  private prune(): void {
    const first = this.store.size > 0 ? this.store.since().next().value?.seq : this.store.next;
    if (first === undefined) return;
    for (const seq of this.bySeq.keys()) {
      if (seq >= first) break;
      this.bySeq.delete(seq);
    }
  }

  private schedule(delay: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const flowing = performance.now() - this.lastAppend < (this.opts.quietMs ?? QUIET_MS);
      const sliceMs = this.opts.sliceMs ?? SLICE_MS;
      if (!this.drain(flowing ? Math.min(sliceMs, FLOOD_SLICE_MS) : sliceMs)) this.schedule(flowing ? FLOOD_INTERVAL_MS : 0);
    }, delay);
    this.timer.unref?.();
  }
}
