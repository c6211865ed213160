/**
 * What the agent tells us about the session besides the thread: its slash commands
 * (`available_commands_update`), its modes (`NewSessionResponse.modes`, `current_mode_update`, and
 * our own successful `session/set_mode`), its settings (`configOptions`, `config_option_update`, the
 * older `models`), how full its context is (`usage_update`) and the account's limits (`quota_update`, quota.ts). When an agent sends config options
 * the legacy Mode picker is not shown (as in Zed): the options carry the mode themselves. Input is untrusted JSON: malformed parts are dropped
 * and reported through `warn`, never thrown. Every change returns the host → webview messages that
 * describe it, so a mirror replaying them always equals `commands()` / `modes()`.
 */
import type { CommandView, ConfigOptionView, ConversationChange, ModesView, ModeView, QuotaView, UsageView } from '../protocol/messages';
import { LEGACY_MODEL_ID, parseConfigOptions, parseLegacyModels, parseUsage } from './configOptions';
import { CLAUDE_RATE_LIMIT_KEY, newerQuota, parseQuotaSnapshot, quotaFromClaudeRateLimit } from './quota';
import { isRecord, describe, isAbsent } from '../protocol/guards';
import { type Warn } from './updateParsing';
import type { Draft } from '../protocol/draft';

/** What the rest of the conversation may read of the session's settings; changing them goes through the Thread. */
export type SessionInfoReader = Pick<SessionInfo, 'commands' | 'modes' | 'configOptions' | 'configOption' | 'usage' | 'quota' | 'hasMode' | 'promptSuggestion'>;

/** Caps so a misbehaving agent cannot flood the panel: generous for real agents (Claude Code sends ~30). */
const MAX_COMMANDS = 500;
const MAX_MODES = 50;
const MAX_TEXT = 1000;

export class SessionInfo {
  private commandList: CommandView[] = [];
  private modeState: ModesView | undefined;
  private options: ConfigOptionView[] = [];
  private legacyModel: ConfigOptionView | undefined;
  private usageState: UsageView | undefined;
  /** The next prompt the agent predicts (see promptSuggestion.ts); undefined: none. */
  private suggestion: string | undefined;
  private quotaState: QuotaView | undefined;

  constructor(private readonly warn: Warn) {}

  /** Copies of the latest commands, in the agent's order. */
  commands(): CommandView[] {
    return this.commandList.map((c) => ({ ...c }));
  }

  /** A copy of the modes, or undefined when the agent has none (or config options replace them). */
  modes(): ModesView | undefined {
    return this.modeState === undefined || this.options.length > 0 ? undefined : copyModes(this.modeState);
  }

  /** The session's settings for the pickers: the agent's config options, else the older models. */
  configOptions(): ConfigOptionView[] {
    const all = [...this.options];
    if (this.legacyModel && !all.some((o) => o.category === 'model' || o.id === LEGACY_MODEL_ID)) all.push(this.legacyModel);
    return structuredClone(all);
  }

  configOption(id: string): (ConfigOptionView & { legacy: boolean }) | undefined {
    const option = this.configOptions().find((o) => o.id === id);
    return option && { ...option, legacy: !this.options.some((o) => o.id === id) };
  }

  usage(): UsageView | undefined {
    return this.usageState === undefined ? undefined : { ...this.usageState };
  }

  promptSuggestion(): string | undefined {
    return this.suggestion;
  }

  /** The agent predicted a prompt (a text) or withdrew it; a turn starting withdraws it too (undefined). */
  setPromptSuggestion(text: string | undefined): ConversationChange[] {
    if (text === this.suggestion) return [];
    this.suggestion = text;
    return [text === undefined ? { type: 'promptSuggestionChanged' } : { type: 'promptSuggestionChanged', suggestion: text }];
  }

  /** The account's limits, the newest snapshot the agent sent (quota_update, Claude's rate-limit events). */
  quota(): QuotaView | undefined {
    return this.quotaState === undefined ? undefined : structuredClone(this.quotaState);
  }

  /** A snapshot from outside the session updates (a prompt result's `_meta.quota`). */
  setQuota(quota: QuotaView): ConversationChange[] {
    const kept = newerQuota(this.quotaState, quota);
    if (kept === this.quotaState) return [];
    this.quotaState = kept;
    return [{ type: 'quotaChanged', quota: structuredClone(kept) }];
  }

  /** What a session/new, load or resume answered: modes, config options, the older models. */
  setSessionResult(result: { modes?: unknown; configOptions?: unknown; models?: unknown }): ConversationChange[] {
    this.options = parseConfigOptions(result.configOptions, this.warn) ?? [];
    this.legacyModel = parseLegacyModels(result.models, this.warn);
    return [...this.setModes(result.modes), this.optionsMessage()];
  }

  /** A `config_option_update`, or the full list `session/set_config_option` answers with. */
  setConfigOptions(value: unknown): ConversationChange[] {
    const options = parseConfigOptions(value, this.warn);
    if (options === undefined) return [];
    const hadOptions = this.options.length > 0;
    this.options = options;
    const messages: ConversationChange[] = [this.optionsMessage()];
    if (hadOptions !== options.length > 0) messages.push(this.modesMessage());
    return messages;
  }

  /** The older `session/set_model` succeeded. */
  setCurrentModel(modelId: string): ConversationChange[] {
    if (!this.legacyModel?.choices?.some((c) => c.value === modelId)) return [];
    this.legacyModel = { ...this.legacyModel, currentValue: modelId };
    return [this.optionsMessage()];
  }

  hasMode(modeId: string): boolean {
    return this.modeState?.available.some((m) => m.id === modeId) === true;
  }

  /**
   * Applies the `session/update` kinds this class owns. Returns undefined for every other kind,
   * so the caller hands those to the thread reducer.
   */
  applyUpdate(update: Record<string, unknown>): ConversationChange[] | undefined {
    switch (update.sessionUpdate) {
      case 'available_commands_update':
        return this.setCommands(update.availableCommands);
      case 'current_mode_update':
        return this.setCurrentMode(update.currentModeId);
      case 'config_option_update':
        return this.setConfigOptions(update.configOptions);
      case 'usage_update': {
        // Claude rides its rate-limit events on usage_update; they are the account's limits, not the context.
        const meta = isRecord(update._meta) ? update._meta[CLAUDE_RATE_LIMIT_KEY] : undefined;
        const limits = meta === undefined ? undefined : quotaFromClaudeRateLimit(meta, this.quotaState);
        const quota = limits ? this.setQuota(limits) : [];
        const usage = parseUsage(update, this.warn);
        if (usage === undefined) return quota;
        this.usageState = usage;
        return [{ type: 'usageChanged', usage: { ...usage } }, ...quota];
      }
      case 'quota_update': {
        const quota = parseQuotaSnapshot(update, this.warn);
        return quota ? this.setQuota(quota) : [];
      }
      default:
        return undefined;
    }
  }

  /** The `modes` of a session/new answer (absent or null: the agent has no modes). */
  setModes(value: unknown): ConversationChange[] {
    if (isAbsent(value)) return this.replaceModes(undefined);
    if (!isRecord(value)) {
      this.warn(`Ignored session modes that are not an object (got ${describe(value)}).`);
      return this.replaceModes(undefined);
    }
    const available = parseModes(value.availableModes, this.warn);
    if (available.length === 0) return this.replaceModes(undefined);
    let currentModeId = typeof value.currentModeId === 'string' ? value.currentModeId : '';
    if (!available.some((m) => m.id === currentModeId)) {
      this.warn(`The current mode ${describe(value.currentModeId)} is not one of the agent's modes; showing ${describe(available[0].id)}.`);
      currentModeId = available[0].id;
    }
    return this.replaceModes({ currentModeId, available });
  }

  /** The agent switched modes (current_mode_update), or confirmed our session/set_mode. */
  setCurrentMode(modeId: unknown): ConversationChange[] {
    if (typeof modeId !== 'string') {
      this.warn(`Ignored a mode change without a mode id (got ${describe(modeId)}).`);
      return [];
    }
    const state = this.modeState;
    if (state === undefined || !state.available.some((m) => m.id === modeId)) {
      // The spec lets only advertised modes become current; an unknown one cannot be shown in the picker.
      this.warn(`Ignored a switch to mode ${describe(modeId)}, which the agent did not advertise.`);
      return [];
    }
    if (state.currentModeId === modeId) return [];
    return this.replaceModes({ currentModeId: modeId, available: state.available });
  }

  /** Tells the panel the modes and options again unchanged (after a failed change, so the pickers revert). */
  restate(): ConversationChange[] {
    return [this.modesMessage(), this.optionsMessage()];
  }

  /** A new session or a stopped agent: nothing is known any more. */
  clear(): ConversationChange[] {
    const messages: ConversationChange[] = [];
    if (this.commandList.length > 0) {
      this.commandList = [];
      messages.push({ type: 'commandsChanged', commands: [] });
    }
    if (this.modeState !== undefined) messages.push(...this.replaceModes(undefined));
    if (this.options.length > 0 || this.legacyModel !== undefined) {
      this.options = [];
      this.legacyModel = undefined;
      messages.push(this.optionsMessage());
    }
    if (this.usageState !== undefined) {
      this.usageState = undefined;
      messages.push({ type: 'usageChanged' });
    }
    messages.push(...this.setPromptSuggestion(undefined));
    // Another session may be another account (or another agent): its limits are not known yet.
    if (this.quotaState !== undefined) {
      this.quotaState = undefined;
      messages.push({ type: 'quotaChanged' });
    }
    return messages;
  }

  private optionsMessage(): ConversationChange {
    return { type: 'configOptionsChanged', options: this.configOptions() };
  }

  private setCommands(value: unknown): ConversationChange[] {
    if (!Array.isArray(value)) {
      this.warn(`Ignored an available_commands_update without a command list (got ${describe(value)}).`);
      return [];
    }
    const commands: CommandView[] = [];
    const seen = new Set<string>();
    for (const item of value.slice(0, MAX_COMMANDS)) {
      const command = parseCommand(item);
      if (command === undefined) {
        this.warn(`Dropped a malformed slash command (got ${describe(item)}).`);
        continue;
      }
      // The panel completes by name: a second command of the same name could never be picked.
      if (seen.has(command.name)) continue;
      seen.add(command.name);
      commands.push(command);
    }
    if (value.length > MAX_COMMANDS) this.warn(`Kept the first ${MAX_COMMANDS} of ${value.length} slash commands.`);
    this.commandList = commands;
    return [{ type: 'commandsChanged', commands: this.commands() }];
  }

  private replaceModes(modes: ModesView | undefined): ConversationChange[] {
    this.modeState = modes;
    return [this.modesMessage()];
  }

  private modesMessage(): ConversationChange {
    const modes = this.modes();
    return modes === undefined ? { type: 'modesChanged' } : { type: 'modesChanged', modes };
  }
}

function parseCommand(item: unknown): CommandView | undefined {
  if (!isRecord(item) || typeof item.name !== 'string') return undefined;
  // Agents differ on whether the name carries the slash; the panel adds it itself.
  const name = item.name.trim().replace(/^\//, '');
  if (name === '' || /\s/.test(name) || name.length > MAX_TEXT) return undefined;
  const command: Draft<CommandView> = { name, description: typeof item.description === 'string' ? clip(item.description) : '' };
  const hint = isRecord(item.input) ? item.input.hint : undefined;
  if (typeof hint === 'string' && hint.trim() !== '') command.hint = clip(hint);
  return command;
}

function parseModes(value: unknown, warn: Warn): ModeView[] {
  if (!Array.isArray(value)) {
    warn(`Ignored session modes without a list of modes (got ${describe(value)}).`);
    return [];
  }
  const modes: ModeView[] = [];
  for (const item of value.slice(0, MAX_MODES)) {
    if (!isRecord(item) || typeof item.id !== 'string' || item.id === '' || modes.some((m) => m.id === item.id)) {
      warn(`Dropped a malformed or repeated session mode (got ${describe(item)}).`);
      continue;
    }
    const mode: Draft<ModeView> = { id: item.id, name: typeof item.name === 'string' && item.name.trim() !== '' ? clip(item.name) : item.id };
    if (typeof item.description === 'string' && item.description !== '') mode.description = clip(item.description);
    modes.push(mode);
  }
  return modes;
}

function copyModes(modes: ModesView): ModesView {
  return { currentModeId: modes.currentModeId, available: modes.available.map((m) => ({ ...m })) };
}

function clip(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
}
