/**
 * One JSON file of saved rules (the workspace's or the global one): reading it defensively and
 * replacing it atomically.
 *
 * File format: `{ "version": 1, "rules": [PermissionRule, …] }`, pretty-printed so a curious user can
 * read it. The scope of a rule is where it lives: whatever a rule in the file says, rules read from
 * the global file are global.
 *
 * Reading never throws. A file that cannot be read or is not a version-1 rules file is renamed aside
 * to `<name>.corrupt-<timestamp>` (kept for the user, never silently overwritten), reported, and read
 * as empty; if it cannot be moved aside, writes refuse to replace it. Malformed rules are dropped
 * and reported. Each distinct problem is reported once.
 */
import * as l10n from '@vscode/l10n';
import * as fs from 'node:fs';
import { writeFileAtomic } from '../util/atomicFile';
import { errorMessage } from '../util/errors';
import { isRecord } from '../protocol/guards';
import type { PermissionRule } from './permissionRule';
import { parseRule } from './permissionRule';

/** The rules file format this code reads and writes. */
export const RULE_FILE_VERSION = 1;

/** Something wrong with a rules file, reported through the store's `onProblem` callback. */
export type RuleFileProblem =
  /** The file was unreadable or not a rules file; it was moved to `movedTo` (undefined: could not be moved). */
  | { kind: 'corruptFile'; file: string; movedTo: string | undefined; message: string }
  /** One rule in the file was malformed or a duplicate and was ignored. */
  | { kind: 'droppedRule'; file: string; message: string };

/** Persisted scopes: conversation rules never reach a file. */
export type PersistedScope = 'workspace' | 'global';

function errorCodeOf(err: unknown): string | undefined {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export class RuleFile {
  private readonly reported = new Set<string>();
  /** Set when a bad file could not be moved aside: replacing it would destroy what it holds. */
  private stuck: string | undefined;

  constructor(
    /** Absolute path of the JSON file (in the extension's workspace or global storage). */
    readonly path: string,
    private readonly scope: PersistedScope,
    private readonly report: (problem: RuleFileProblem) => void,
    private readonly now: () => Date,
  ) {}

  /** The valid rules in the file; [] when it does not exist or is bad (see the module comment). Never throws. */
  async read(): Promise<PermissionRule[]> {
    let text: string;
    try {
      text = await fs.promises.readFile(this.path, 'utf8');
    } catch (err) {
      if (errorCodeOf(err) === 'ENOENT') {
        this.stuck = undefined;
        return [];
      }
      await this.setAside(l10n.t('could not be read ({0})', errorMessage(err)));
      return [];
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (err) {
      await this.setAside(l10n.t('is not valid JSON ({0})', errorMessage(err)));
      return [];
    }
    if (!isRecord(data) || data.version !== RULE_FILE_VERSION || !Array.isArray(data.rules)) {
      await this.setAside(l10n.t('is not a version {0} Tandem rules file', RULE_FILE_VERSION));
      return [];
    }
    this.stuck = undefined;
    return this.parseRules(data.rules);
  }

  /**
   * Replaces the file with `rules` atomically (`writeFileAtomic`: a flushed temporary file in the same
   * folder renamed over the old one), so readers in this window or another see the old file or the
   * new one, never half of one. Throws on I/O failure, leaving the old file as it was.
   */
  async write(rules: readonly PermissionRule[]): Promise<void> {
    if (this.stuck !== undefined) {
      throw new Error(l10n.t('{0} {1} and could not be moved aside; it was left untouched', this.path, this.stuck));
    }
    await writeFileAtomic(this.path, `${JSON.stringify({ version: RULE_FILE_VERSION, rules }, null, 2)}\n`);
  }

  private parseRules(values: unknown[]): PermissionRule[] {
    const rules: PermissionRule[] = [];
    const ids = new Set<string>();
    values.forEach((value, index) => {
      // The file decides the scope (a rule cannot promote itself from workspace to global).
      const parsed = parseRule(isRecord(value) ? { ...value, scope: this.scope } : value);
      if ('error' in parsed) {
        this.reportOnce({ kind: 'droppedRule', file: this.path, message: l10n.t('Ignored rule {0} of {1}: {2}', index + 1, this.path, parsed.error) });
      } else if (ids.has(parsed.rule.id)) {
        this.reportOnce({
          kind: 'droppedRule',
          file: this.path,
          message: l10n.t("Ignored rule {0} of {1}: its id repeats an earlier rule's.", index + 1, this.path),
        });
      } else {
        ids.add(parsed.rule.id);
        rules.push(parsed.rule);
      }
    });
    return rules;
  }

  private async setAside(reason: string): Promise<void> {
    const stamp = this.now().toISOString().replace(/[:.]/g, '-');
    const movedTo = `${this.path}.corrupt-${stamp}`;
    try {
      await fs.promises.rename(this.path, movedTo);
    } catch (err) {
      if (errorCodeOf(err) === 'ENOENT') return; // another window moved it first, and reported it
      this.stuck = reason;
      this.reportOnce({
        kind: 'corruptFile',
        file: this.path,
        movedTo: undefined,
        message: l10n.t('The permission rules file {0} {1} and could not be moved aside ({2}); its rules are ignored.', this.path, reason, errorMessage(err)),
      });
      return;
    }
    this.stuck = undefined;
    this.reportOnce({
      kind: 'corruptFile',
      file: this.path,
      movedTo,
      message: l10n.t('The permission rules file {0} {1}; it was moved to {2} and its rules are ignored.', this.path, reason, movedTo),
    });
  }

  private reportOnce(problem: RuleFileProblem): void {
    if (this.reported.has(problem.message)) return;
    this.reported.add(problem.message);
    try {
      this.report(problem);
    } catch {
      // A faulty callback must not break reading the rules.
    }
  }
}

/** A rule file problem as a sentence for the user (output channel, warning). */
export function describeRuleProblem(problem: RuleFileProblem): string {
  if (problem.kind === 'droppedRule') return l10n.t('a rule in {0} was ignored: {1}', problem.file, problem.message);
  if (problem.movedTo)
    return l10n.t('{0} could not be read ({1}). It was set aside as {2}; the rules start empty.', problem.file, problem.message, problem.movedTo);
  return l10n.t('{0} could not be read ({1}).', problem.file, problem.message);
}
