/**
 * Who changed each file the review sees differ from its baseline, so the changed-files strip counts
 * only the conversation's own changes and Undo all never takes the user's work.
 *
 * - `agent`: the agent wrote it through `fs/write_text_file`, or a tool call of this conversation
 *   named it (an edit, delete or move, or a diff it sent) in a turn during which it changed.
 * - `user`: the user changed it in the editor (a save, a file created, deleted or renamed there) or
 *   Tandem wrote it for them (an exported transcript). Never counted, and taken into the baseline
 *   when the next turn starts.
 * - `outside`: it changed during a turn and nobody claimed it (a command the agent ran, another
 *   program): shown, marked, and left out of Keep all / Undo all.
 * - anything else changed between turns (the agent idle): never counted, taken into the baseline
 *   when the next turn starts.
 *
 * The agent wins over the user (a file both touched is the agent's: its edit must stay undoable),
 * the user over `outside`. Paths are absolute, in the checkpoint store's form.
 */

/** What the transcript keeps, so the attribution survives a restart. */
export interface LedgerState {
  agent: string[];
  outside: string[];
}

/** How the strip shows a file that differs from the baseline; undefined: not the conversation's change. */
export type ChangeOrigin = 'agent' | 'outside' | undefined;

export class ChangeLedger {
  /** Settled: the agent changed these in an earlier turn (or in this one, when claimed while idle). */
  private readonly agent = new Set<string>();
  /** Settled: changed during an earlier turn, by no one Tandem could name. */
  private readonly outside = new Set<string>();
  /** Claimed by the agent in the running turn; kept at its end only if the file changed in it. */
  private readonly turnAgent = new Set<string>();
  /** Changed by the user since the running (or last) turn started. */
  private readonly user = new Set<string>();
  private turn = false;
  /**
   * Restored from a transcript written before attribution existed: what differs then cannot be told
   * apart, so it is marked outside once (shown, never in Undo all) instead of being dropped.
   */
  private legacy = false;

  get inTurn(): boolean {
    return this.turn;
  }

  claimAgent(path: string): void {
    if (this.turn) this.turnAgent.add(path);
    else this.agent.add(path);
    this.user.delete(path);
  }

  claimUser(path: string): void {
    if (!this.agent.has(path) && !this.turnAgent.has(path)) this.user.add(path);
  }

  origin(path: string): ChangeOrigin {
    if (this.agent.has(path) || this.turnAgent.has(path)) return 'agent';
    if (this.user.has(path)) return undefined;
    if (this.outside.has(path)) return 'outside';
    // Between turns every unclaimed change was taken into the baseline when this turn started, so
    // one seen now happened during the turn.
    return this.turn ? 'outside' : undefined;
  }

  /**
   * Before a turn, with the files that differ from the baseline now: adopts a legacy state, and
   * returns the files to take into the baseline (the user's, and what changed between turns).
   */
  betweenTurns(differing: readonly string[]): string[] {
    this.adoptLegacy(differing);
    return differing.filter((p) => this.origin(p) === undefined);
  }

  /** The turn started; `accepted` went into the baseline. */
  beginTurn(accepted: readonly string[]): void {
    for (const p of accepted) this.outside.delete(p);
    // Late (a capture that outlasted its wait): what was claimed in the turn meanwhile stays.
    if (this.turn) return;
    this.user.clear();
    this.turnAgent.clear();
    this.turn = true;
  }

  /** Every path with a claim the end of a turn must check against the baseline. */
  claimed(): string[] {
    return [...new Set([...this.agent, ...this.outside, ...this.turnAgent])];
  }

  /**
   * The turn ended: `during` changed since it started, `differing` differ from the baseline now
   * (asked for the `during` and `claimed()` paths). Claims of files that are back at the baseline go.
   */
  settle(during: ReadonlySet<string>, differing: ReadonlySet<string>): void {
    for (const p of this.turnAgent) if (during.has(p)) this.agent.add(p);
    this.turnAgent.clear();
    for (const p of during) if (!this.agent.has(p) && !this.user.has(p)) this.outside.add(p);
    for (const set of [this.agent, this.outside]) for (const p of set) if (!differing.has(p)) set.delete(p);
    for (const p of this.agent) this.outside.delete(p);
    this.turn = false;
  }

  /** The turn ended with nothing to compare with (no checkpoint): its claims stand as they are. */
  settleBlind(): void {
    for (const p of this.turnAgent) this.agent.add(p);
    this.turnAgent.clear();
    this.turn = false;
  }

  /** Kept or undone: the file is at its baseline, so nobody's change any more. */
  forget(paths: readonly string[]): void {
    for (const p of paths) for (const set of [this.agent, this.outside, this.turnAgent]) set.delete(p);
  }

  /** A new baseline: nothing claimed against the old one applies. */
  reset(): void {
    for (const set of [this.agent, this.outside, this.turnAgent, this.user]) set.clear();
    this.legacy = false;
  }

  /** Marks every unclaimed difference outside, once, for a state restored without attribution. */
  adoptLegacy(differing: readonly string[]): void {
    if (!this.legacy) return;
    this.legacy = false;
    for (const p of differing) if (this.origin(p) === undefined && !this.user.has(p)) this.outside.add(p);
  }

  state(): LedgerState {
    return { agent: [...this.agent, ...this.turnAgent].sort(), outside: [...this.outside].sort() };
  }

  restore(state: LedgerState | undefined): void {
    this.reset();
    if (!state) {
      this.legacy = true;
      return;
    }
    for (const p of state.agent) this.agent.add(p);
    for (const p of state.outside) this.outside.add(p);
  }
}
