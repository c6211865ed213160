/**
 * The replay agent (bundled to dist/replayAgent.js): an ACP agent over stdio that answers from a
 * transcript (`Tandem: Replay Transcript…`). It speaks newline-delimited JSON itself rather than
 * through the SDK's agent side: a replay must send what the recorded agent sent byte for byte in
 * meaning — including what the SDK would refuse to send (an invalid stop reason, an update for an
 * unknown tool call) — since those are the bugs a replay reproduces.
 *
 *   node dist/replayAgent.js <transcript.jsonl> [--fast]
 *
 * `--fast` sends the recorded messages as fast as the client reads them; by default they keep the
 * recorded pacing (each pause capped at 10 s). Everything it has to say goes to stderr.
 */
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Replayer } from '../inspector/replayer';
import { buildScript } from '../inspector/replayScript';
import { parseTranscript } from '../inspector/transcript';

const note = (text: string): void => void process.stderr.write(`${text}\n`);

function main(): void {
  const args = process.argv.slice(2);
  const file = args.find((a) => !a.startsWith('--'));
  if (!file) {
    note('Usage: replayAgent <transcript.jsonl> [--fast]');
    process.exit(2);
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    note(`Replay: cannot read ${file}: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(2);
  }
  const transcript = parseTranscript(text);
  for (const problem of transcript.problems) note(`Replay: ${problem.text}`);
  if (transcript.messages.length === 0) {
    note('Replay: nothing to replay.');
    process.exit(2);
  }
  const script = buildScript(transcript);
  const header = transcript.header;
  note(
    `Replay of ${file}: ${script.steps.length} messages${header?.agent?.name ? ` recorded with ${header.agent.name}` : ''}${header?.tandemVersion ? ` in Tandem ${header.tandemVersion}` : ''}${args.includes('--fast') ? ', as fast as possible' : ', at the recorded pace'}.`,
  );
  if (script.skipped > 0) note(`Replay: ${script.skipped} messages of later connections (the agent was restarted) are not replayed.`);
  const prompts = script.steps.filter((s) => s.kind === 'expect' && s.method === 'session/prompt').length;
  if (prompts > 0) note(`Replay: the recording has ${prompts} prompt${prompts === 1 ? '' : 's'}; send as many (any text) to play it all.`);
  note(
    'Replay: Tandem plays this as a sandbox: recorded commands are never run (each terminal shows its recorded output), every recorded file write is proposed to you as a diff to accept or reject, and file reads are not served.',
  );
  run(new Replayer(script, { reply: write, note }, args.includes('--fast') ? 'fast' : 'recorded'));
}

let writing: Promise<void> = Promise.resolve();

/** Writes one message, in order, waiting for the pipe when it is full. */
function write(msg: Record<string, unknown>): Promise<void> {
  writing = writing.then(
    () =>
      new Promise<void>((resolve) => {
        if (process.stdout.write(`${JSON.stringify(msg)}\n`)) resolve();
        else process.stdout.once('drain', () => resolve());
      }),
  );
  return writing;
}

function run(replayer: Replayer): void {
  let wake: (() => void) | undefined;
  let closed = false;
  const input = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  input.on('line', (line) => {
    if (!line.trim()) return;
    try {
      const msg: unknown = JSON.parse(line);
      if (typeof msg === 'object' && msg !== null && !Array.isArray(msg)) replayer.receive(msg as Record<string, unknown>);
      else note(`Replay: ignored a line from the client that is not a JSON object: ${line.slice(0, 200)}`);
    } catch {
      note(`Replay: ignored a line from the client that is not JSON: ${line.slice(0, 200)}`);
    }
    wake?.();
  });
  input.on('close', () => {
    closed = true;
    wake?.();
  });
  const loop = async (): Promise<void> => {
    while (!closed) {
      const action = replayer.next();
      if (action.type === 'send') {
        if (action.delayMs > 0) await new Promise((r) => setTimeout(r, action.delayMs));
        await write(action.msg);
        continue;
      }
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  };
  void loop().then(async () => {
    await writing;
    process.exit(0);
  });
}

main();
