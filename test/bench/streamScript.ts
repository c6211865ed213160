/** The streaming workload shared by the Tandem run and the bare SDK client run. */

export const CHUNK_COUNT = 20_000;
/** Chunks per paragraph: agents stream prose in paragraphs, which the markdown renderer can freeze. */
export const PARAGRAPH = 20;
/** Text of the first chunk (of every paragraph): its first paint is the first-chunk latency. */
export const FIRST_MARKER = 'lorem ipsum';
/** Unique text of the very last chunk; its paint ends the measurement. */
export const END_MARKER = 'ENDOFSTREAM7f3a';

const say = (text: string): unknown => ({ update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } });

/** 1,000 paragraphs of 19 chunks (~31 chars each, `${i}` numbered) plus a paragraph-ending chunk. */
export function streamingScript(): unknown {
  const steps: unknown[] = [];
  for (let p = 0; p < CHUNK_COUNT / PARAGRAPH; p++) {
    steps.push({ chunks: { count: PARAGRAPH - 1, text: 'lorem ipsum dolor sit amet ${i} ' } });
    const last = p === CHUNK_COUNT / PARAGRAPH - 1;
    steps.push(say(last ? `the end: ${END_MARKER}` : `end of paragraph number ${p}.\n\n`));
  }
  return { turns: [{ steps, stopReason: 'end_turn' }] };
}
