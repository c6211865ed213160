import type { CheckpointStore } from './checkpointStore';
import type { FileChange } from './checkpointTypes';
import { ChangeLedger, type ChangeOrigin, type LedgerState } from './changeLedger';
import { errorMessage } from '../util/errors';
import { toAbs } from './fsUtil';

/** A path as the store hands paths out (under its root as given), so claims and changes compare; as given outside it. */
function inStoreForm(store: CheckpointStore | undefined, path: string): string {
  const rel = store?.relOf(path);
  return rel === undefined ? path : toAbs(store!.root, rel);
}

/** A capture slower than this does not hold the prompt back (the turn then has no checkpoint). */
const CAPTURE_TIMEOUT_MS = 15_000;

/** A file that differs from the baseline and is the conversation's change (the agent's, or unclaimed in a turn). */
export interface AttributedChange {
  change: FileChange;
  origin: NonNullable<ChangeOrigin>;
}

/**
 * A conversation's turns as the review sees them: each turn's checkpoint, and who changed what (see
 * ChangeLedger). Claims arrive as any path (a real path, a path through a link) and are kept in the
 * store's form; a turn's start takes what changed between turns into the baseline, then records the
 * files; its end compares with that checkpoint to settle who changed what during the turn.
 */
export class TurnAttribution {
  private readonly ledger = new ChangeLedger();
  /** The newest checkpoint taken (a client write is recorded into it too). */
  latest: string | undefined;
  /** The running turn's checkpoint (undefined: none was taken, or no turn runs). */
  private turnStart: string | undefined;
  /** A turn's start waits for the end of the one before: what changed between them is told apart only then. */
  private turns: Promise<unknown> = Promise.resolve();

  constructor(private readonly warn: (message: string) => void) {}

  get inTurn(): boolean {
    return this.ledger.inTurn;
  }

  /** Runs turn starts and ends one after the other, in the order asked. */
  inOrder<T>(work: () => Promise<T>): Promise<T> {
    const run = this.turns.then(work, work);
    this.turns = run.catch(() => undefined);
    return run;
  }

  /** The agent changes these files (its fs write, a tool call naming them). */
  agent(store: CheckpointStore | undefined, paths: readonly string[]): void {
    for (const p of paths) this.ledger.claimAgent(inStoreForm(store, p));
  }

  /** The user changed this file (in the editor, or Tandem wrote it for them). */
  user(store: CheckpointStore | undefined, path: string): void {
    this.ledger.claimUser(inStoreForm(store, path));
  }

  /** The files that differ from the baseline and count as the conversation's change, sorted by path. */
  async changes(store: CheckpointStore, baseline: string): Promise<AttributedChange[]> {
    const changes = await store.changes(baseline, { against: 'baseline' });
    this.ledger.adoptLegacy(changes.map((c) => c.path));
    const out: AttributedChange[] = [];
    for (const change of changes) {
      const origin = this.ledger.origin(change.path);
      if (origin !== undefined) out.push({ change, origin });
    }
    return out;
  }

  /** The agent's files among the changed ones: what Keep all and Undo all act on. */
  async agentPaths(store: CheckpointStore, baseline: string): Promise<string[]> {
    return (await this.changes(store, baseline)).filter((c) => c.origin === 'agent').map((c) => c.change.path);
  }

  /**
   * Records the files before a turn, after taking into the baseline what changed since the last
   * turn and is not the conversation's (the user's saves, files they created, anything while the
   * agent was idle), so neither this turn's strip nor a later Undo counts it. Resolves with the
   * checkpoint's id; undefined when it failed or took too long (the turn goes on without one).
   */
  async beginTurn(store: CheckpointStore, baseline: string | undefined, label: string): Promise<string | undefined> {
    // A turn that was never ended (it should not happen; if it did, its claims must not be lost).
    if (this.ledger.inTurn) await this.endTurn(store, baseline);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), CAPTURE_TIMEOUT_MS)));
    const capture = async () => {
      await this.takeBetweenTurns(store, baseline).catch((err) => this.warn(`Review: what changed between turns was not set aside: ${errorMessage(err)}`));
      return store.create(label);
    };
    try {
      const checkpoint = await Promise.race([capture(), timeout]);
      if (!checkpoint) this.warn(`Recording the files before this turn took over ${CAPTURE_TIMEOUT_MS / 1000} s; the turn goes on without a checkpoint.`);
      this.turnStart = checkpoint?.id;
      if (checkpoint) this.latest = checkpoint.id;
      return checkpoint?.id;
    } catch (err) {
      this.warn(`Could not record the files before this turn: ${errorMessage(err)}`);
      return undefined;
    } finally {
      clearTimeout(timer);
      // Even without a checkpoint: what changes from here on is this turn's.
      if (!this.ledger.inTurn) this.ledger.beginTurn([]);
    }
  }

  /**
   * The turn ended: the files that changed since its checkpoint are the agent's when it claimed
   * them, the user's when they saved them, and outside otherwise. Without a checkpoint of the turn
   * nothing can be compared: the claims stand.
   */
  async endTurn(store: CheckpointStore | undefined, baseline: string | undefined): Promise<void> {
    const start = this.turnStart;
    this.turnStart = undefined;
    if (!this.ledger.inTurn) return;
    if (!store || baseline === undefined || start === undefined || !store.get(baseline) || !store.get(start)) return this.ledger.settleBlind();
    try {
      const during = (await store.changes(start, { against: 'start' })).map((c) => c.path);
      const asked = [...new Set([...during, ...this.ledger.claimed()])];
      const differing = asked.length === 0 ? [] : (await store.changes(baseline, { against: 'baseline', paths: asked })).map((c) => c.path);
      this.ledger.settle(new Set(during), new Set(differing));
    } catch (err) {
      this.ledger.settleBlind();
      this.warn(`Review: who changed what in this turn could not be told: ${errorMessage(err)}`);
    }
  }

  private async takeBetweenTurns(store: CheckpointStore, baseline: string | undefined): Promise<void> {
    let accepted: string[] = [];
    if (baseline !== undefined && store.get(baseline)) {
      const differing = (await store.changes(baseline, { against: 'baseline' })).map((c) => c.path);
      accepted = this.ledger.betweenTurns(differing);
      if (accepted.length > 0) await store.accept(baseline, accepted);
    }
    this.ledger.beginTurn(accepted);
  }

  /** Kept or undone: these files are at the baseline again. */
  forget(store: CheckpointStore | undefined, paths: readonly string[]): void {
    this.ledger.forget(paths.map((p) => inStoreForm(store, p)));
  }

  /** A new baseline was taken: nothing from the old one applies. */
  reset(): void {
    this.ledger.reset();
  }

  state(): LedgerState {
    return this.ledger.state();
  }

  /** From a transcript; undefined (written before attribution existed): what differs is marked outside. */
  restore(state: LedgerState | undefined): void {
    this.ledger.restore(state);
  }
}
