import * as l10n from '@vscode/l10n';
import { errorMessage } from '../util/errors';
import { valueProblem } from '../thread/configOptions';
import type { Conversation } from './conversation';
import type { SessionLink } from './sessionLink';

/**
 * A session's settings as the user changes them: the mode (`session/set_mode`) and config options
 * (`session/set_config_option`, or the older `session/set_model`). The picker follows only what the
 * agent agreed to; a refusal says why and the picker reverts. Answers that arrive after the session
 * was replaced (another connect attempt) are ignored.
 */
export class SessionSettings {
  constructor(
    private readonly c: Conversation,
    private readonly link: Pick<SessionLink, 'connection' | 'sessionId' | 'attempt'>,
  ) {}

  /**
   * The user picked a mode: `session/set_mode`, and the picker follows once the agent agreed (it may
   * also send current_mode_update). A refusal becomes an error entry and the picker reverts.
   */
  async setMode(modeId: string): Promise<void> {
    const c = this.c;
    const conn = this.link.connection();
    const sessionId = this.link.sessionId;
    if (!conn || sessionId === undefined || !c.info.hasMode(modeId)) {
      c.deps.log.warn(`Mode ${modeId} not set: ${conn ? `${c.agentName} does not offer it` : 'there is no session'}.`);
      c.emit(c.info.restate());
      return;
    }
    const token = this.link.attempt;
    try {
      await conn.setMode(sessionId, modeId);
      if (token === this.link.attempt) c.emit(c.info.setCurrentMode(modeId));
    } catch (err) {
      if (token !== this.link.attempt) return;
      const name = c.info.modes()?.available.find((m) => m.id === modeId)?.name ?? modeId;
      c.addError(l10n.t('{0} could not switch to the {1} mode: {2}', c.agentName, name, errorMessage(err)), undefined, 'showLog');
      c.emit(c.info.restate());
    }
  }

  /**
   * The user changed a session setting: `session/set_config_option` (the answer is the full list,
   * rendered as is), or the older `session/set_model`. A refusal says why and the picker reverts.
   */
  async setConfigOption(configId: string, value: string | boolean, quiet = false): Promise<boolean> {
    const c = this.c;
    const conn = this.link.connection();
    const sessionId = this.link.sessionId;
    const option = c.info.configOption(configId);
    const problem = !conn || sessionId === undefined ? 'there is no session' : !option ? 'the agent does not offer it' : valueProblem(option, value);
    if (problem !== undefined || !conn || sessionId === undefined || !option) {
      c.deps.log.warn(`Setting ${configId} not changed: ${problem}.`);
      c.emit(c.info.restate());
      return false;
    }
    const token = this.link.attempt;
    try {
      if (option.legacy) {
        await conn.setModel(sessionId, String(value));
        if (token === this.link.attempt) c.emit(c.info.setCurrentModel(String(value)));
      } else {
        const result = await conn.setConfigOption(sessionId, configId, value);
        if (token === this.link.attempt) c.emit(c.info.setConfigOptions(result.configOptions));
      }
      if (!quiet) c.deps.rememberOption?.(c.agentName, configId, value);
      return true;
    } catch (err) {
      if (token !== this.link.attempt) return false;
      const shown = option.type === 'select' ? (option.choices?.find((x) => x.value === value)?.name ?? String(value)) : value ? l10n.t('on') : l10n.t('off');
      if (quiet) c.deps.log.warn(`${c.agentName} did not take the remembered ${option.name} ${shown}: ${errorMessage(err)}`);
      else c.addError(l10n.t('{0} could not change {1} to {2}: {3}', c.agentName, option.name, shown, errorMessage(err)), undefined, 'showLog');
      c.emit(c.info.restate());
      return false;
    }
  }

  /** A new session gets the settings the user chose last time for this agent (when enabled). */
  async applyRemembered(token: number): Promise<void> {
    const remembered = this.c.deps.rememberedOptions?.(this.c.agentName) ?? {};
    for (const [configId, value] of Object.entries(remembered)) {
      if (token !== this.link.attempt) return;
      const option = this.c.info.configOption(configId);
      if (!option || option.currentValue === value || valueProblem(option, value) !== undefined) continue;
      await this.setConfigOption(configId, value, true);
    }
  }
}
