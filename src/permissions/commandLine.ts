/**
 * Shell command lines for command-prefix rules: tokenising into words, spotting anything that is not
 * one simple command, and matching a prefix on whole words.
 *
 * The guiding rule is "when in doubt, no match": a rule that fails to match only means the user is
 * asked, while a rule that matches too much runs something the user never agreed to. So this is
 * deliberately not a shell parser. Any character that could start a second command, a redirection or
 * a substitution makes the line "compound" even inside quotes (`git commit -m "a; b"` is asked about),
 * and anything the tokeniser is unsure of (unbalanced quotes, `$'…'`) fails to tokenise.
 */
import * as l10n from '@vscode/l10n';

/** Longest command line considered at all; longer ones never match (and are never proposed). */
export const MAX_COMMAND_LENGTH = 10_000;

/**
 * Characters that can chain, pipe, background, redirect or substitute: `;`, `&` (also `&&`), `|`
 * (also `||`), `<`, `>`, backticks, parentheses (subshells, `$(…)`, `<(…)`), and line breaks.
 */
const COMPOUND_CHARS = /[;&|<>`()\n\r]/;

/** Other control characters (NUL, vertical tab, escape…): shells treat some oddly, so never match. */
const CONTROL_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f]/;

/** `NAME=value` before the program: changes what the program does (PATH=…, LD_PRELOAD=…). */
const ENV_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;

/**
 * True when `command` may be more than one simple command: it contains a command separator or
 * operator (`;`, `&&`, `||`, `|`, `&`), a redirection (`<`, `>`), a command substitution (`$(`,
 * backticks), a subshell parenthesis or a line break — anywhere, quoted or not — or a control character.
 */
export function isCompoundCommand(command: string): boolean {
  return COMPOUND_CHARS.test(command) || CONTROL_CHARS.test(command);
}

/** True for a leading `NAME=value` word (an environment assignment, not a program). */
export function isEnvAssignment(word: string): boolean {
  return ENV_ASSIGNMENT.test(word);
}

/**
 * Splits a command line into words the way a POSIX shell would for a simple command: blanks
 * separate words; single quotes keep everything literally; inside double quotes a backslash escapes
 * only `$`, `` ` ``, `"`, `\` and a line break; elsewhere a backslash escapes any character.
 * Returns undefined when the line cannot be tokenised with confidence: an unbalanced quote, a
 * trailing backslash, or ANSI-C / locale quoting (`$'…'`, `$"…"`), whose value this does not compute.
 * Expansions (`$VAR`, globs, `~`) are left as written.
 */
export function tokenizeCommand(command: string): string[] | undefined {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < command.length; i++) {
    const ch = command[i];
    if (quote === "'") {
      if (ch === "'") quote = undefined;
      else word += ch;
      continue;
    }
    if (quote === '"') {
      if (ch === '"') {
        quote = undefined;
      } else if (ch === '\\') {
        const next = command[i + 1];
        if (next === undefined) return undefined;
        if (next === '\n') {
          i++; // line continuation
        } else if (next === '$' || next === '`' || next === '"' || next === '\\') {
          word += next;
          i++;
        } else {
          word += ch;
        }
      } else {
        word += ch;
      }
      continue;
    }
    if (ch === ' ' || ch === '\t') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (ch === '\\') {
      const next = command[i + 1];
      if (next === undefined) return undefined;
      i++;
      if (next !== '\n') {
        word += next;
        inWord = true;
      }
    } else if (ch === '$' && (command[i + 1] === "'" || command[i + 1] === '"')) {
      return undefined;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (quote !== undefined) return undefined;
  if (inWord) words.push(word);
  return words;
}

/**
 * The words of `command` when it is exactly one simple command that rules may judge: not compound,
 * tokenisable, not empty, not too long, and not starting with an environment assignment.
 * Undefined otherwise.
 */
export function simpleCommandWords(command: string): string[] | undefined {
  if (command.length > MAX_COMMAND_LENGTH || isCompoundCommand(command)) return undefined;
  const words = tokenizeCommand(command);
  if (words === undefined || words.length === 0) return undefined;
  if (isEnvAssignment(words[0])) return undefined;
  return words;
}

/** Why `prefix` cannot be a command-prefix rule, or undefined when it can. */
export function commandPrefixProblem(prefix: string): string | undefined {
  if (prefix.trim().length === 0) return l10n.t('The command prefix is empty.');
  if (prefix.length > MAX_COMMAND_LENGTH) return l10n.t('The command prefix is too long.');
  if (isCompoundCommand(prefix)) {
    return l10n.t('A command prefix must be one simple command: no ; & | < > ` ( ) or line breaks.');
  }
  const words = tokenizeCommand(prefix);
  if (words === undefined) return l10n.t('The command prefix has an unbalanced quote or a trailing backslash.');
  if (words.length === 0) return l10n.t('The command prefix is empty.');
  if (isEnvAssignment(words[0])) return l10n.t('A command prefix cannot start with an environment assignment (NAME=value).');
  if (words[0].length === 0) return l10n.t('A command prefix cannot start with an empty word.');
  return undefined;
}

/**
 * True when `command` is one simple command whose first words equal the words of `prefix`, compared
 * whole word by whole word after quote removal: `npm test` matches `npm test` and
 * `npm test -- --watch`, not `npm testing` or `npm run test`. A compound, untokenisable or
 * env-prefixed command never matches, and neither does an invalid prefix.
 */
export function matchesCommandPrefix(prefix: string, command: string): boolean {
  if (commandPrefixProblem(prefix) !== undefined) return false;
  const want = simpleCommandWords(prefix);
  const have = simpleCommandWords(command);
  if (want === undefined || have === undefined || have.length < want.length) return false;
  return want.every((word, i) => have[i] === word);
}

/** Words a shell reads back unchanged without quotes. */
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** One word quoted so that `tokenizeCommand` (and a POSIX shell) reads it back unchanged. */
export function quoteShellWord(word: string): string {
  if (PLAIN_WORD.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Shells whose `-c` script is the real command (Codex sends `["bash", "-lc", "npm test"]`). */
const SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh']);
const SCRIPT_FLAGS: ReadonlySet<string> = new Set(['-c', '-lc', '-cl']);

/**
 * A command line for an argv-style command (`rawInput.command` as a string list). A shell wrapper of
 * exactly the form `[sh|bash|zsh|dash|ksh, -c|-lc|-cl, script]` becomes its script, since that is what
 * runs; any other list is joined with each word quoted, so it reads back as the same words.
 * Undefined for an empty list.
 */
export function commandFromArgv(argv: readonly string[]): string | undefined {
  if (argv.length === 0) return undefined;
  if (argv.length === 3) {
    const program = argv[0].slice(argv[0].lastIndexOf('/') + 1);
    if (SHELLS.has(program) && SCRIPT_FLAGS.has(argv[1])) return argv[2];
  }
  return argv.map(quoteShellWord).join(' ');
}
