import type { AgentLaunchConfig } from '../acp/agentProcess';
import { redactSecrets } from '../acp/protocolLog';
import type { TerminalSignIn } from './ports';

/**
 * What a terminal sign-in runs, decided in one place: the agent's own invocation with the method's
 * arguments appended (ACP's `type: "terminal"` form; the older `_meta["terminal-auth"]` form, a
 * whole command of the agent's choosing, is not honoured), and the method's variables over the
 * agent's environment — except any that would make the program load other code or find another
 * executable. The card and the confirmation show the same line this builds.
 */

/** A terminal auth method as the agent described it. */
export interface TerminalMethod {
  args: string[];
  env: Record<string, string>;
}

/** The terminal to run, and the command line the user is shown for it. */
export interface SignInCommand {
  spec: TerminalSignIn;
  commandLine: string;
}

/**
 * Variables a method may not set: each makes a program (node, the dynamic linker, a shell,
 * python, perl, ruby, java, git, npm) load or run code it names, or changes which executable a
 * bare command name finds. Compared upper-cased (Windows' names are case-insensitive).
 */
const LOADER_NAMES = new Set([
  'NODE_OPTIONS',
  'NODE_PATH',
  'NODE_REPL_EXTERNAL_MODULE',
  'BASH_ENV',
  'ENV',
  'ZDOTDIR',
  'PROMPT_COMMAND',
  'SHELLOPTS',
  'BASHOPTS',
  'PS4',
  'IFS',
  'CDPATH',
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'JDK_JAVA_OPTIONS',
  'CLASSPATH',
  'GCONV_PATH',
  'LUA_INIT',
  'PHPRC',
  'PHP_INI_SCAN_DIR',
  'PATH',
  'PATHEXT',
  'COMSPEC',
  'SHELL',
]);
const LOADER_PREFIXES = ['LD_', 'DYLD_', 'PYTHON', 'PERL', 'RUBY', 'BASH_FUNC_', 'GIT_', 'NPM_CONFIG_'];

export function isLoaderVariable(name: string): boolean {
  const upper = name.toUpperCase();
  return LOADER_NAMES.has(upper) || LOADER_PREFIXES.some((p) => upper.startsWith(p));
}

/**
 * Whether an agent may be offered a terminal sign-in at all: not a replay (the transcript, a file
 * from anyone, would choose what runs) and not an agent on another machine (there is no local
 * command of its own to run, and one kept from this machine's tools must not reach them this way).
 */
export function terminalSignInOffered(agent: AgentLaunchConfig | undefined): boolean {
  return agent !== undefined && agent.sandbox === undefined && agent.remote === undefined && agent.command !== '';
}

/**
 * The terminal for `method` of `agent`: its command and arguments, then the method's; the
 * method's variables minus loader ones (each dropped one is passed to `dropped`).
 */
export function signInCommand(agent: AgentLaunchConfig, method: TerminalMethod, name: string, dropped: (variable: string) => void): SignInCommand {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(method.env)) {
    if (isLoaderVariable(key)) dropped(key);
    else env[key] = value;
  }
  const spec: TerminalSignIn = { name, command: agent.command, args: [...agent.args, ...method.args], env: { ...agent.env, ...env }, cwd: agent.cwd };
  // The method's own variables are part of what it asks to run; the agent's configured ones are
  // the user's (often keys) and stay out of the line, which is masked with them besides.
  const assignments = Object.entries(env).map(([key, value]) => `${key}=${quoted(value)}`);
  const line = [...assignments, quoted(spec.command), ...spec.args.map(quoted)].join(' ');
  return { spec, commandLine: redactSecrets(line, Object.values(agent.env)) };
}

/** A word as a POSIX shell would need it to mean itself (a readable form; nothing runs it through a shell). */
function quoted(word: string): string {
  if (word !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
