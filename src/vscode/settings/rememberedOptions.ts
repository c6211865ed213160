import type * as vscode from 'vscode';
import { setting } from './settings';

/** globalState key of the session settings remembered per agent (`tandem.rememberSessionOptions`). */
const KEY = 'tandem.rememberedSessionOptions';

type Remembered = Record<string, Record<string, string | boolean>>;

/**
 * The session settings (model, mode, …) the user last picked per agent, kept in the extension's
 * global state, re-applied to the agent's new sessions when `tandem.rememberSessionOptions` is on.
 */
export class RememberedOptions {
  constructor(private readonly state: vscode.Memento) {}

  get(agentName: string): Record<string, string | boolean> {
    return this.enabled() ? (this.state.get<Remembered>(KEY)?.[agentName] ?? {}) : {};
  }

  set(agentName: string, configId: string, value: string | boolean): void {
    if (!this.enabled()) return;
    const all = { ...(this.state.get<Remembered>(KEY) ?? {}) };
    all[agentName] = { ...all[agentName], [configId]: value };
    void this.state.update(KEY, all);
  }

  private enabled(): boolean {
    return setting('rememberSessionOptions') === true;
  }
}
