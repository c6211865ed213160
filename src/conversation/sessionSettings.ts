import * as l10n from '@vscode/l10n';
import { errorMessage } from '../util/errors';
import { valueProblem } from '../thread/configOptions';
import type { Thread } from '../thread/thread';
import type { EditorPorts, ConversationState } from './ports';
import type { SessionLink } from './sessionLink';

/**
 * A session's settings as the user changes them: the mode (`session/set_mode`) and config options
 * (`session/set_config_option`, or the older `session/set_model`). The picker follows only what the
 * agent agreed to; a refusal says why and the picker reverts. Answers that arrive after the session
 * was replaced (another connect attempt) are ignored.
 */
export class SessionSettings {
  constructor(
    private readonly c: Pick<ConversationState, 'agentName' | 'log' | 'fail'>,
    private readonly thread: Pick<Thread, 'session' | 'modeSet' | 'configOptionsSet' | 'modelSet' | 'restateSettings'>,
    private readonly link: Pick<SessionLink, 'connection' | 'sessionId' | 'attempt'>,
    private readonly remembered: Pick<EditorPorts, 'rememberedOptions' | 'rememberOption'>,
  ) {}

  /**
   * The user picked a mode: `session/set_mode`, and the picker follows once the agent agreed (it may
   * also send current_mode_update). A refusal becomes an error entry and the picker reverts.
   */
  async setMode(modeId: string): Promise<void> {
    const { c, thread } = this;
    const conn = this.link.connection();
    const sessionId = this.link.sessionId;
    if (!conn || sessionId === undefined || !thread.session.hasMode(modeId)) {
      c.log.warn(`Mode ${modeId} not set: ${conn ? `${c.agentName} does not offer it` : 'there is no session'}.`);
      thread.restateSettings();
      return;
    }
    const token = this.link.attempt;
    try {
      await conn.setMode(sessionId, modeId);
      if (token === this.link.attempt) thread.modeSet(modeId);
    } catch (err) {
      if (token !== this.link.attempt) return;
      const name = thread.session.modes()?.available.find((m) => m.id === modeId)?.name ?? modeId;
      c.fail({ message: l10n.t('{0} could not switch to the {1} mode: {2}', c.agentName, name, errorMessage(err)), action: 'showLog' });
      thread.restateSettings();
    }
  }

  /**
   * The user changed a session setting: `session/set_config_option` (the answer is the full list,
   * rendered as is), or the older `session/set_model`. A refusal says why and the picker reverts.
   */
  async setConfigOption(configId: string, value: string | boolean, quiet = false): Promise<boolean> {
    const { c, thread } = this;
    const conn = this.link.connection();
    const sessionId = this.link.sessionId;
    const option = thread.session.configOption(configId);
    const problem = !conn || sessionId === undefined ? 'there is no session' : !option ? 'the agent does not offer it' : valueProblem(option, value);
    if (problem !== undefined || !conn || sessionId === undefined || !option) {
      c.log.warn(`Setting ${configId} not changed: ${problem}.`);
      thread.restateSettings();
      return false;
    }
    const token = this.link.attempt;
    try {
      if (option.legacy) {
        await conn.setModel(sessionId, String(value));
        if (token === this.link.attempt) thread.modelSet(String(value));
      } else {
        const result = await conn.setConfigOption(sessionId, configId, value);
        if (token === this.link.attempt) thread.configOptionsSet(result.configOptions);
      }
      if (!quiet) this.remembered.rememberOption(c.agentName, configId, value);
      return true;
    } catch (err) {
      if (token !== this.link.attempt) return false;
      const shown = option.type === 'select' ? (option.choices?.find((x) => x.value === value)?.name ?? String(value)) : value ? l10n.t('on') : l10n.t('off');
      if (quiet) c.log.warn(`${c.agentName} did not take the remembered ${option.name} ${shown}: ${errorMessage(err)}`);
      else c.fail({ message: l10n.t('{0} could not change {1} to {2}: {3}', c.agentName, option.name, shown, errorMessage(err)), action: 'showLog' });
      thread.restateSettings();
      return false;
    }
  }

  /** A new session gets the settings the user chose last time for this agent (when enabled). */
  async applyRemembered(token: number): Promise<void> {
    const remembered = this.remembered.rememberedOptions(this.c.agentName);
    for (const [configId, value] of Object.entries(remembered)) {
      if (token !== this.link.attempt) return;
      const option = this.thread.session.configOption(configId);
      if (!option || option.currentValue === value || valueProblem(option, value) !== undefined) continue;
      await this.setConfigOption(configId, value, true);
    }
  }
}
