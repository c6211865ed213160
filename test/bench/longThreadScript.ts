/**
 * The long-conversation workload of the "speed at scale" rows: 100 turns, each ~2,000 streamed
 * chunks of markdown in 20 steps and 20 tool calls (every other one an edit with a diff, the others
 * a command whose output arrives through `_meta` terminal output). Played by the scripted agent,
 * one turn per prompt, so the thread is built by the real host path.
 */

export const TURNS = 100;
export const STEPS_PER_TURN = 20;
/** Chunks per step: a heading, two runs of word chunks, an inline-markdown chunk, a paragraph end. */
export const CHUNKS_PER_STEP = 100;
/** Unique text of the very last chunk of the last turn: the "last screen" is painted when it is. */
export const LAST_MARKER = 'LASTSCREEN9c1e';
/** Lines of each edited file and of each command's output. */
const FILE_LINES = 20;
const OUTPUT_LINES = 15;

const say = (text: string): unknown => ({ update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } });

function fileText(turn: number, step: number, edited: boolean): string {
  const lines: string[] = [];
  for (let j = 0; j < FILE_LINES; j++) {
    const changed = edited && j % 7 === 3;
    lines.push(
      changed
        ? `export const value${j} = compute(${j}, ${turn}); // changed in turn ${turn}`
        : `export const value${j} = ${j * step}; // module ${turn}, file ${step}`,
    );
  }
  return lines.join('\n') + '\n';
}

function commandOutput(turn: number, step: number): string {
  const lines: string[] = [`> tandem-bench@1.0.0 test mod${turn}/file${step}`, ''];
  for (let j = 0; j < OUTPUT_LINES - 3; j++) lines.push(`\x1b[32m✓\x1b[0m src/mod${turn}/file${step}.test.ts > case ${j} passes (${(j * 7) % 13} ms)`);
  lines.push(`\x1b[1mTests\x1b[0m ${OUTPUT_LINES - 3} passed`);
  return lines.join('\r\n') + '\r\n';
}

function toolSteps(turn: number, step: number): unknown[] {
  const toolCallId = `t${turn}-s${step}`;
  if (step % 2 === 0) {
    const path = `\${cwd}/src/mod${turn}/file${step}.ts`;
    const oldText = fileText(turn, step, false);
    const newText = fileText(turn, step, true);
    return [
      {
        update: {
          sessionUpdate: 'tool_call',
          toolCallId,
          title: `Edit src/mod${turn}/file${step}.ts`,
          kind: 'edit',
          status: 'in_progress',
          locations: [{ path, line: 4 }],
          rawInput: { file_path: path, old_string: 'value3', new_string: 'compute(3)' },
          content: [{ type: 'diff', path, oldText, newText }],
        },
      },
      { update: { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed' } },
    ];
  }
  const terminalId = `term-${turn}-${step}`;
  const command = `npm test -- mod${turn}/file${step}`;
  return [
    {
      update: {
        sessionUpdate: 'tool_call',
        toolCallId,
        title: command,
        kind: 'execute',
        status: 'in_progress',
        rawInput: { command },
        content: [{ type: 'terminal', terminalId }],
        _meta: { terminal_info: { terminal_id: terminalId, command } },
      },
    },
    {
      update: {
        sessionUpdate: 'tool_call_update',
        toolCallId,
        status: 'completed',
        _meta: {
          terminal_output: { terminal_id: terminalId, data: commandOutput(turn, step) },
          terminal_exit: { terminal_id: terminalId, exit_code: 0, signal: null },
        },
      },
    },
  ];
}

/** One turn: 20 × (100 chunks of prose, one tool call), then a closing sentence. */
export function turnSteps(turn: number, last: boolean): unknown[] {
  const steps: unknown[] = [];
  for (let step = 0; step < STEPS_PER_TURN; step++) {
    steps.push(say(`### Step ${step + 1} of turn ${turn + 1}\n\n`));
    steps.push({ chunks: { count: 48, text: 'word${i} ' } });
    steps.push(say('with `inline code` and **bold** text.\n\n'));
    steps.push({ chunks: { count: 49, text: 'token${i} ' } });
    steps.push(say('\n\n'));
    steps.push(...toolSteps(turn, step));
  }
  steps.push(say(last ? `All done. ${LAST_MARKER}` : `Done with turn ${turn + 1}.`));
  return steps;
}

/** The agent's script: turn i answers prompt i. */
export function longThreadScript(turns = TURNS): unknown {
  return { turns: Array.from({ length: turns }, (_, t) => ({ steps: turnSteps(t, t === turns - 1), stopReason: 'end_turn' })) };
}
