/**
 * All permission rules of one window: conversation rules in memory (per conversation id, gone with
 * the window), workspace and global rules in two JSON files the caller names (VS Code's workspace and
 * global extension storage; never settings files, which a cloned repository could bring along).
 *
 * Every load and change runs through one queue, so concurrent calls cannot interleave their
 * read-modify-write cycles. Each change re-reads its file first, so a rule another window added to
 * the shared global file in the meantime is kept rather than overwritten. `list` is synchronous
 * (permission requests are answered from the in-memory copy); call `load` once before relying on it.
 *
 * Nothing here throws to the caller: bad files are reported through `onProblem` (see `RuleFile`),
 * and changes resolve to a `RuleResult` saying what went wrong.
 */
import * as l10n from '@vscode/l10n';
import { randomUUID } from 'node:crypto';
import { Emitter } from '../util/disposable';
import type { IDisposable } from '../util/disposable';
import { errorMessage } from '../util/errors';
import type { PermissionRule, RuleChanges, RuleDraft } from './permissionRule';
import { cleanDraft, draftProblem } from './permissionRule';
import { RuleFile } from './ruleFile';
import type { PersistedScope, RuleFileProblem } from './ruleFile';

export interface RuleStoreOptions {
  /** Absolute path of the global rules file (e.g. in `ExtensionContext.globalStorageUri`). */
  globalFile: string;
  /** Absolute path of this workspace's rules file (`storageUri`); undefined when no folder is open. */
  workspaceFile: string | undefined;
  /** Told about each distinct problem with a rules file, once. */
  onProblem?: (problem: RuleFileProblem) => void;
  /** New rule ids (default: `crypto.randomUUID`). */
  newId?: () => string;
  /** The clock, for `createdAt` and corrupt-file names (default: now). */
  now?: () => Date;
}

/** How a change went: the rule as saved (or as removed), or why nothing changed. */
export type RuleResult = { ok: true; rule: PermissionRule } | { ok: false; error: string };

type Change = { rules: PermissionRule[]; rule: PermissionRule } | { error: string };

export class RuleStore implements IDisposable {
  private readonly files: Partial<Record<PersistedScope, RuleFile>> = {};
  private readonly saved: Record<PersistedScope, PermissionRule[]> = { workspace: [], global: [] };
  private readonly conversations = new Map<string, PermissionRule[]>();
  private readonly emitter = new Emitter<void>();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly newId: () => string;
  private readonly now: () => Date;

  constructor(opts: RuleStoreOptions) {
    this.newId = opts.newId ?? randomUUID;
    this.now = opts.now ?? (() => new Date());
    const report = (problem: RuleFileProblem): void => opts.onProblem?.(problem);
    this.files.global = new RuleFile(opts.globalFile, 'global', report, this.now);
    if (opts.workspaceFile !== undefined) this.files.workspace = new RuleFile(opts.workspaceFile, 'workspace', report, this.now);
  }

  /** Fires after rules were loaded or changed (in any scope). */
  readonly onDidChange = this.emitter.event;

  /** (Re)reads both files. Never rejects; problems go to `onProblem`. */
  load(): Promise<void> {
    return this.enqueue(async () => {
      this.saved.workspace = (await this.files.workspace?.read()) ?? [];
      this.saved.global = (await this.files.global?.read()) ?? [];
      this.emitter.fire();
    });
  }

  /**
   * The rules that apply to a conversation, as copies: its conversation rules (none when no id is
   * given), then workspace rules, then global rules.
   */
  list(conversationId?: string): PermissionRule[] {
    const conversation = conversationId === undefined ? [] : (this.conversations.get(conversationId) ?? []);
    return [...conversation, ...this.saved.workspace, ...this.saved.global].map((rule) => structuredClone(rule));
  }

  /** A copy of the rule with this id, in any scope or conversation. */
  get(id: string): PermissionRule | undefined {
    const rule = this.find(id)?.rule;
    return rule === undefined ? undefined : structuredClone(rule);
  }

  /**
   * Saves a new rule in the draft's scope. A conversation rule needs the conversation id. The draft
   * is validated first (`draftProblem`), and only its known fields are kept.
   */
  add(draft: RuleDraft, conversationId?: string): Promise<RuleResult> {
    const problem = draftProblem(draft);
    if (problem !== undefined) return Promise.resolve({ ok: false, error: problem });
    const rule: PermissionRule = { id: this.uniqueId(), ...cleanDraft(draft), createdAt: this.now().toISOString() };
    if (rule.scope === 'conversation') {
      if (typeof conversationId !== 'string' || conversationId.length === 0) {
        return Promise.resolve({ ok: false, error: l10n.t('A conversation rule needs the id of its conversation.') });
      }
      this.conversations.set(conversationId, [...(this.conversations.get(conversationId) ?? []), rule]);
      this.emitter.fire();
      return Promise.resolve({ ok: true, rule: structuredClone(rule) });
    }
    return this.change(rule.scope, (rules) => ({ rules: [...rules, rule], rule }));
  }

  /** Edits a rule's agent, kind, matcher or decision in place (its id, scope and `createdAt` stay). */
  update(id: string, changes: RuleChanges): Promise<RuleResult> {
    // Only the editable fields are taken, whatever else the caller's object carries.
    const edit = (rule: PermissionRule): PermissionRule | string => {
      const next: PermissionRule = { ...rule };
      if (changes.agent !== undefined) next.agent = changes.agent;
      if (changes.toolKind !== undefined) next.toolKind = changes.toolKind;
      if (changes.matcher !== undefined) next.matcher = changes.matcher;
      if (changes.decision !== undefined) next.decision = changes.decision;
      const problem = draftProblem(next);
      if (problem !== undefined) return problem;
      const cleaned: PermissionRule = { id: rule.id, ...cleanDraft(next) };
      if (rule.createdAt !== undefined) cleaned.createdAt = rule.createdAt;
      return cleaned;
    };
    return this.replace(id, edit);
  }

  /** Deletes a rule from whichever scope holds it; resolves to the removed rule. */
  remove(id: string): Promise<RuleResult> {
    return this.replace(id, () => undefined);
  }

  /** Drops the rules of a conversation that ended. */
  forgetConversation(conversationId: string): void {
    if (this.conversations.delete(conversationId)) this.emitter.fire();
  }

  dispose(): void {
    this.conversations.clear();
    this.emitter.dispose();
  }

  /** Replaces (edit returns a rule), deletes (edit returns undefined) or refuses (edit returns a reason). */
  private replace(id: string, edit: (rule: PermissionRule) => PermissionRule | string | undefined): Promise<RuleResult> {
    const found = this.find(id);
    if (found === undefined) return Promise.resolve({ ok: false, error: l10n.t('There is no rule with id {0}.', id) });
    if (found.conversationId !== undefined) {
      const list = this.conversations.get(found.conversationId) ?? [];
      const next = edit(found.rule);
      if (typeof next === 'string') return Promise.resolve({ ok: false, error: next });
      this.conversations.set(found.conversationId, next === undefined ? list.filter((r) => r.id !== id) : list.map((r) => (r.id === id ? next : r)));
      this.emitter.fire();
      return Promise.resolve({ ok: true, rule: structuredClone(next ?? found.rule) });
    }
    return this.change(found.scope, (rules) => {
      const current = rules.find((r) => r.id === id);
      // Another window may have removed it since this one loaded the file.
      if (current === undefined) return { error: l10n.t('There is no rule with id {0} any more.', id) };
      const next = edit(current);
      if (typeof next === 'string') return { error: next };
      if (next === undefined) return { rules: rules.filter((r) => r.id !== id), rule: current };
      return { rules: rules.map((r) => (r.id === id ? next : r)), rule: next };
    });
  }

  /** One queued read-modify-write of a rules file; the in-memory copy follows the file. */
  private change(scope: PersistedScope, apply: (rules: PermissionRule[]) => Change): Promise<RuleResult> {
    return this.enqueue(async (): Promise<RuleResult> => {
      const file = this.files[scope];
      if (file === undefined) return { ok: false, error: l10n.t('No folder is open, so there is nowhere to keep workspace rules.') };
      const current = await file.read();
      let outcome: Change;
      try {
        outcome = apply(current);
      } catch (err) {
        outcome = { error: errorMessage(err) };
      }
      if ('error' in outcome) {
        this.settle(scope, current);
        return { ok: false, error: outcome.error };
      }
      try {
        await file.write(outcome.rules);
      } catch (err) {
        this.settle(scope, current);
        return { ok: false, error: l10n.t('Could not save the rule: {0}', errorMessage(err)) };
      }
      this.settle(scope, outcome.rules);
      return { ok: true, rule: structuredClone(outcome.rule) };
    });
  }

  private settle(scope: PersistedScope, rules: PermissionRule[]): void {
    this.saved[scope] = rules;
    this.emitter.fire();
  }

  /** Runs `task` after every earlier queued task has finished, whatever their outcome. */
  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Where the rule with `id` lives: a conversation (by id) or a persisted scope. */
  private find(
    id: string,
  ):
    | { rule: PermissionRule; conversationId: string; scope?: undefined }
    | { rule: PermissionRule; conversationId?: undefined; scope: PersistedScope }
    | undefined {
    for (const [conversationId, rules] of this.conversations) {
      const rule = rules.find((r) => r.id === id);
      if (rule !== undefined) return { rule, conversationId };
    }
    for (const scope of ['workspace', 'global'] as const) {
      const rule = this.saved[scope].find((r) => r.id === id);
      if (rule !== undefined) return { rule, scope };
    }
    return undefined;
  }

  private uniqueId(): string {
    for (let attempt = 0; attempt < 5; attempt++) {
      const id = this.newId();
      if (typeof id === 'string' && id.length > 0 && this.find(id) === undefined) return id;
    }
    return randomUUID(); // a faulty or repeating `newId` must not produce a duplicate
  }
}
