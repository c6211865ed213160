/**
 * Host ⇄ webview protocol: what the header and composer offer of the agent — the agents to pick,
 * its settings (config options, models), modes, slash commands and context usage. Part of the
 * protocol re-exported by messages.ts.
 */

/** A session setting the agent offers: ACP config options, or the older `models`. */
export interface ConfigOptionView {
  readonly id: string;
  readonly name: string;
  readonly description?: string;
  /** `mode`, `model` and `thought_level` get pickers in the header; the rest go in the options menu. */
  readonly category?: string;
  readonly type: 'select' | 'boolean';
  readonly currentValue: string | boolean;
  /** select: the choices in order; `group` names the group of grouped choices. */
  readonly choices?: ReadonlyArray<{ readonly value: string; readonly name: string; readonly description?: string; readonly group?: string }>;
}

/** How full the agent's context is (`usage_update`). */
export interface UsageView {
  readonly used: number;
  readonly size: number;
  readonly cost?: { readonly amount: number; readonly currency: string };
}

/** An agent the user can pick: configured in `tandem.agents`, or built in. */
export interface AgentChoice {
  readonly name: string;
  /** Command line for display (no env values: they may hold secrets). */
  readonly commandLine: string;
  readonly builtIn: boolean;
  /** Where it runs when not on this machine: a remote endpoint's host, an ssh destination. */
  readonly host?: string;
  /** The workspace's settings define it (or override the user's entry of that name): said in the pickers. */
  readonly fromWorkspace?: boolean;
}

/** A well-known agent that can be added to `tandem.agents` with one click. */
export interface AgentPreset {
  readonly id: string;
  readonly name: string;
  readonly commandLine: string;
}

/** A slash command the agent offers (`available_commands_update`); typed as `/name args`. */
export interface CommandView {
  /** Without the leading slash. */
  readonly name: string;
  readonly description: string;
  /** What to type after the name, when the command takes input. */
  readonly hint?: string;
}

/** A mode the agent can run in (ACP session modes, e.g. "Ask", "Code", "Plan"). */
export interface ModeView {
  readonly id: string;
  readonly name: string;
  readonly description?: string;
}

/** The agent's modes and the current one; absent when the agent has none. */
export interface ModesView {
  readonly currentModeId: string;
  readonly available: readonly ModeView[];
}

/**
 * Who the agent is signed in as, as it reports it (`_auth/status_update {authStatus}` of
 * claude-agent-acp and codex-acp, ACP's `auth/status` and `auth/status_update`).
 */
export interface AccountView {
  /** true: signed in (or an API key, a gateway); false: the agent says nobody is; absent: it does not say. */
  readonly signedIn?: boolean;
  /** What the agent calls the identity: "Anthropic API key", an e-mail address, "Not logged in". */
  readonly label: string;
  /** More about it: the key's variable, the gateway's host, the organisation. */
  readonly detail?: string;
}
