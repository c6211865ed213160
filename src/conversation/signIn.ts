import * as l10n from '@vscode/l10n';
import type * as acp from '@agentclientprotocol/sdk';
import type { AuthEntry, AuthMethodView } from '../protocol/messages';
import type { Draft } from '../protocol/draft';
import { errorMessage } from '../util/errors';
import type { AgentRuntime } from '../runtime/agentRuntime';
import type { Thread } from '../thread/thread';
import type { ConversationPorts, ConversationState } from './ports';
import { isRecord, describe } from '../protocol/guards';
import { type Warn } from '../thread/updateParsing';
import { signInMessage } from './withheldSecrets';
import { signInCommand, terminalSignInOffered, type SignInCommand, type TerminalMethod } from './terminalSignIn';

/** An auth method as parsed, with how to run it when it is a terminal method. */
export interface ParsedAuthMethod extends AuthMethodView {
  /** envVar methods: how the value is called, for the box that asks for it ("API key"). */
  envLabel?: string;
  /** terminal methods: arguments appended to the agent's invocation, and variables for it. */
  terminal?: TerminalMethod;
  /** terminal methods once offered: what runs (and is shown on the card). */
  run?: SignInCommand;
}

/** `FOO_API_KEY`-like names in a method's name or description: what API-key methods ask the user to set. */
const ENV_VAR = /\b[A-Z][A-Z0-9]*_(?:[A-Z0-9]+_)*(?:API_KEY|KEY|TOKEN)\b/;

function stringRecord(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** `authMethods` of `initialize`, from untrusted JSON. */
export function parseAuthMethods(value: unknown, warn: Warn): ParsedAuthMethod[] {
  if (!Array.isArray(value)) return [];
  const methods: ParsedAuthMethod[] = [];
  for (const raw of value.slice(0, 20)) {
    if (!isRecord(raw) || typeof raw.id !== 'string' || raw.id === '') {
      warn(`Dropped a malformed auth method (got ${describe(raw)}).`);
      continue;
    }
    const name = typeof raw.name === 'string' && raw.name !== '' ? raw.name.slice(0, 200) : raw.id;
    const method: Draft<ParsedAuthMethod> = { id: raw.id, name, kind: 'agent' };
    if (typeof raw.description === 'string' && raw.description !== '') method.description = raw.description.slice(0, 1000);
    // Only ACP's own form: the older `_meta["terminal-auth"]` names a whole command of the agent's
    // choosing (Tandem never advertises it, and a replayed file could put anything there).
    if (raw.type === 'terminal') {
      method.kind = 'terminal';
      method.terminal = { args: stringList(raw.args), env: stringRecord(raw.env) };
    } else if (raw.type === 'env_var') {
      // The auth-methods RFD's shape: the client provides the variables (`vars`; older drafts `varName`).
      const vars = Array.isArray(raw.vars) ? raw.vars.filter(isRecord) : [];
      const first = vars.find((v) => typeof v.name === 'string' && v.name !== '');
      const envVar = typeof first?.name === 'string' ? first.name : typeof raw.varName === 'string' ? raw.varName : undefined;
      if (envVar && /^[A-Za-z_][A-Za-z0-9_]*$/.test(envVar)) {
        method.kind = 'envVar';
        method.envVar = envVar;
        if (typeof first?.label === 'string' && first.label !== '') method.envLabel = first.label.slice(0, 100);
      }
    } else {
      const envVar = ENV_VAR.exec(`${name} ${method.description ?? ''}`)?.[0];
      if (envVar) {
        method.kind = 'envVar';
        method.envVar = envVar;
      }
    }
    methods.push(method);
  }
  return methods;
}

/** What to do once the user signed in: open the session again, or resend what could not be sent. */
type Retry = () => Promise<void>;

/** How asking the agent to sign out went (the editor tells the user what the thread cannot). */
export type SignOutOutcome =
  /** The agent forgot its credentials; the thread says so. */
  | { kind: 'signedOut' }
  | { kind: 'failed'; error: string }
  /** The agent did not advertise `logout` (or is not running). */
  | { kind: 'unsupported'; running: boolean };

/**
 * The sign-in card of a conversation: the agent's auth methods with a button each. Agent methods run
 * `authenticate`; terminal methods run the agent's own login command in a terminal the user sees,
 * the card showing that command and a modal asking before its first run (exit code 0 → the agent
 * is restarted and asked again); API-key methods ask for the key once
 * and keep it in VS Code's secret storage (the agent gets it in the variable the method names). Then what failed is retried.
 */
export class SignIn {
  private entry: AuthEntry | undefined;
  private methods: ParsedAuthMethod[] = [];
  private retry: Retry | undefined;
  /** Command lines the user agreed to run (asked once each, for this conversation in this window). */
  private readonly confirmed = new Set<string>();

  constructor(
    private readonly c: Pick<ConversationState, 'agentName' | 'log' | 'flag'>,
    private readonly thread: Pick<Thread, 'entries' | 'addEntry' | 'replaceEntry' | 'addNotice'>,
    private readonly parts: { runtime(): AgentRuntime | undefined; ports: Pick<ConversationPorts, 'editor' | 'agentLaunch' | 'restartAgent'> },
  ) {}

  /** Shows (or refreshes) the card for `methods`; `retry` runs after a successful sign-in. */
  show(methods: acp.AuthMethod[], message: string, retry: Retry): void {
    const { c, thread } = this;
    this.methods = this.offered(parseAuthMethods(methods, (t) => c.log.warn(t)));
    this.retry = retry;
    message = signInMessage(c.agentName, message, this.parts.ports.agentLaunch(c.agentName));
    const view = this.methods.map(({ terminal: _terminal, envLabel: _label, run, ...m }) => (run ? { ...m, commandLine: run.commandLine } : m));
    const shown = this.entry && thread.entries().some((e) => e.id === this.entry?.id);
    if (shown && this.entry) {
      this.entry = { ...this.entry, message, methods: view, state: { kind: 'waiting' } };
      thread.replaceEntry(this.entry);
    } else {
      this.entry = thread.addEntry(
        (id) => ({ kind: 'auth', id, agentName: c.agentName, message, methods: view, state: { kind: 'waiting' } }) satisfies AuthEntry,
      );
    }
    c.flag('error');
  }

  /**
   * The methods this agent may be offered, terminal ones with what they run. A replay or an agent
   * on another machine gets no terminal sign-in (see terminalSignIn.ts), nor an editor without a
   * terminal to run it in.
   */
  private offered(methods: ParsedAuthMethod[]): ParsedAuthMethod[] {
    const { c } = this;
    const { ports } = this.parts;
    const agent = ports.agentLaunch(c.agentName);
    const name = l10n.t('Sign in: {0}', c.agentName);
    return methods.flatMap((method) => {
      if (method.kind !== 'terminal' || !method.terminal) return [method];
      if (!agent || !ports.editor.runSignInTerminal || !terminalSignInOffered(agent)) {
        c.log.warn(
          `Auth method '${method.id}' of ${c.agentName} runs a command in a terminal; not offered for this agent (a replay, a remote agent, or no terminal here).`,
        );
        return [];
      }
      const run = signInCommand(agent, method.terminal, name, (variable) =>
        c.log.warn(`Auth method '${method.id}' of ${c.agentName} sets ${variable}, which could make its command load other code; left out.`),
      );
      return [{ ...method, run }];
    });
  }

  /** The agent advertised `logout`, so signOut reaches it (the panel shows Sign out by this). */
  get canSignOut(): boolean {
    return this.parts.runtime()?.canLogout === true;
  }

  /** Asks the agent to forget its own credentials (ACP `logout`), when it advertised that. */
  async signOut(): Promise<SignOutOutcome> {
    const runtime = this.parts.runtime();
    if (!runtime || runtime.canLogout !== true) return { kind: 'unsupported', running: runtime?.alive === true };
    try {
      await runtime.connection().logout();
    } catch (err) {
      return { kind: 'failed', error: err instanceof Error ? err.message : String(err) };
    }
    this.thread.addNotice('info', l10n.t('Signed out of {0}. It asks you to sign in again when it needs to.', this.c.agentName));
    return { kind: 'signedOut' };
  }

  /** The first method the card offers (the header's Sign in). */
  async authenticateFirst(): Promise<void> {
    const first = this.methods[0];
    if (first) await this.authenticate(first.id);
  }

  async authenticate(methodId: string): Promise<void> {
    const c = this.c;
    const method = this.methods.find((m) => m.id === methodId);
    const entry = this.entry;
    if (!method || !entry || entry.state.kind === 'working') return;
    this.setState({ kind: 'working', methodId });
    try {
      if (method.kind === 'terminal') {
        if (!(await this.runTerminal(method))) return this.setState({ kind: 'waiting' });
      } else if (method.kind === 'envVar' && method.envVar) {
        if (!(await this.signInWithValue(method, method.envVar))) return this.setState({ kind: 'waiting' });
      } else {
        const runtime = this.parts.runtime();
        if (!runtime?.alive) throw new Error(l10n.t('{0} is not running; restart it and try again', c.agentName));
        await runtime.connection().authenticate(methodId);
      }
      this.setState({ kind: 'done', methodId });
      const retry = this.retry;
      this.retry = undefined;
      await retry?.();
    } catch (err) {
      const hint =
        method.kind === 'envVar' && method.envVar
          ? ` ${l10n.t('Press it again to enter the key (it is kept in VS Code’s secret storage), or set {0} in the environment VS Code starts from.', method.envVar)}`
          : '';
      this.setState({ kind: 'failed', methodId, error: `${errorMessage(err)}.${hint}`.replace(/\.\./g, '.') });
    }
  }

  /**
   * An API-key method: the key may already be in the agent's environment (then `authenticate`
   * succeeds); otherwise the user enters it once, it is kept in VS Code's secret storage, and the
   * agent starts again with it in that variable. False when the user cancelled.
   */
  private async signInWithValue(method: ParsedAuthMethod, envVar: string): Promise<boolean> {
    const { c } = this;
    const { ports } = this.parts;
    const runtime = this.parts.runtime();
    if (runtime?.alive) {
      const accepted = await runtime
        .connection()
        .authenticate(method.id)
        .then(
          () => true,
          () => false,
        );
      if (accepted) return true;
    }
    if (!(await ports.editor.askSecret(c.agentName, { name: envVar, label: method.envLabel }))) return false;
    // A fresh process has the value in its environment.
    await ports.restartAgent(c.agentName);
    return true;
  }

  /**
   * The agent's own login, in a terminal; a clean exit means signed in, and the agent starts
   * again. The first run of a command line asks the user, naming it; false when they said no.
   */
  private async runTerminal(method: ParsedAuthMethod): Promise<boolean> {
    const c = this.c;
    const { ports } = this.parts;
    const run = ports.editor.runSignInTerminal;
    if (!run || !method.run) throw new Error(l10n.t('Signing in through a terminal is not available here'));
    const { spec, commandLine } = method.run;
    if (!this.confirmed.has(commandLine)) {
      if (!(await ports.editor.confirmSignInCommand(c.agentName, commandLine))) return false;
      this.confirmed.add(commandLine);
    }
    const code = await run(spec);
    if (code !== 0)
      throw new Error(
        code === undefined ? l10n.t('The sign-in terminal was closed before it finished') : l10n.t('The sign-in command exited with code {0}', code),
      );
    // A fresh process picks up the new credentials.
    await ports.restartAgent(c.agentName);
    return true;
  }

  private setState(state: AuthEntry['state']): void {
    if (!this.entry) return;
    this.entry = { ...this.entry, state };
    this.thread.replaceEntry(this.entry);
  }
}
