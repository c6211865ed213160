/**
 * The next prompt claude-agent-acp 0.101 predicts (`session_info_update._meta.promptSuggestions`,
 * in the shape its prompt-suggestions.js sends: `{suggestions: [{text}]}`, an empty list to withdraw
 * it) reaching the panel through a real Thread: announced, withdrawn, spent when a turn starts,
 * forgotten with the session; a title in the same update still names the tab; junk is ignored.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ConversationChange } from '../../src/protocol/messages';
import { Thread } from '../../src/thread/thread';
import { MAX_SUGGESTION_CHARS, promptSuggestionOf } from '../../src/thread/promptSuggestion';

function thread() {
  const emitted: ConversationChange[] = [];
  const titles: string[] = [];
  const t = new Thread({
    isInWorkspace: () => false,
    roots: () => [],
    warn: () => undefined,
    emit: (m) => emitted.push(...m),
    follow: () => undefined,
    titled: (title) => titles.push(title),
  });
  const suggestions = () =>
    emitted.filter((c) => c.type === 'promptSuggestionChanged').map((c) => (c.type === 'promptSuggestionChanged' ? (c.suggestion ?? null) : ''));
  return { t, titles, suggestions };
}

const predicted = (text: string | null) => ({
  sessionUpdate: 'session_info_update',
  _meta: { promptSuggestions: { suggestions: text === null ? [] : [{ text }] } },
});

test('a predicted prompt reaches the panel, is withdrawn by an empty list, spent when the next turn starts', () => {
  const { t, suggestions } = thread();
  t.dispatch(predicted('Run the tests again'));
  assert.equal(t.session.promptSuggestion(), 'Run the tests again');
  t.dispatch(predicted('Run the tests again'));
  assert.deepEqual(suggestions(), ['Run the tests again'], 'the same prediction twice is one change');
  t.dispatch(predicted(null));
  assert.equal(t.session.promptSuggestion(), undefined);
  t.dispatch(predicted('Commit the fix'));
  t.addUserMessage('something else');
  assert.equal(t.session.promptSuggestion(), undefined, 'a turn starting spends it');
  t.dispatch(predicted('Open a pull request'));
  t.sessionClosed();
  assert.deepEqual(suggestions(), ['Run the tests again', null, 'Commit the fix', null, 'Open a pull request', null]);
});

test('a title and a suggestion in one update both count; an update of the title alone leaves the suggestion', () => {
  const { t, titles, suggestions } = thread();
  t.dispatch({ ...predicted('Add a test'), title: 'Fix the login bug', updatedAt: '2026-12-01T10:00:00Z' });
  t.dispatch({ sessionUpdate: 'session_info_update', title: 'Fix the login bug (2)' });
  assert.deepEqual(titles, ['Fix the login bug', 'Fix the login bug (2)']);
  assert.deepEqual(suggestions(), ['Add a test']);
  assert.equal(t.session.promptSuggestion(), 'Add a test');
});

test('junk is no suggestion: not a list, no text, blank texts; the first text that says something wins; a huge one is cut', () => {
  const meta = (promptSuggestions: unknown) => ({ sessionUpdate: 'session_info_update', _meta: { promptSuggestions } });
  assert.equal(promptSuggestionOf({ sessionUpdate: 'session_info_update' }), undefined);
  assert.equal(promptSuggestionOf(meta('Run it')), undefined);
  assert.equal(promptSuggestionOf(meta({ suggestions: 'Run it' })), undefined);
  assert.equal(promptSuggestionOf(meta({ suggestions: [{ text: '   ' }, 7, null] })), null, 'only blanks: withdrawn');
  assert.equal(promptSuggestionOf(meta({ suggestions: [{ text: ' ' }, { text: '  Second  ' }] })), 'Second');
  const huge = promptSuggestionOf(meta({ suggestions: [{ text: 'x'.repeat(1_000_000) }] }));
  assert.equal(huge?.length, MAX_SUGGESTION_CHARS);
  const { t, suggestions } = thread();
  t.dispatch(meta({ suggestions: { text: 'not a list' } }) as Record<string, unknown>);
  assert.deepEqual(suggestions(), []);
});
