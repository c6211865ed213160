// What Tandem keeps on disk in a code-server profile: per folder, in the extension's global storage
// (src/session/folderStorage.ts), an index and one transcript per conversation.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extensionId } from './paths';

/** Every folder's index and transcripts, concatenated (tests look for texts in it). */
export function storedConversations(userDataDir: string): string {
  const root = foldersRoot(userDataDir);
  if (!existsSync(root)) return '';
  let text = '';
  for (const folder of readdirSync(root)) {
    const index = join(root, folder, 'conversations.json');
    if (existsSync(index)) text += readFileSync(index, 'utf8');
  }
  return text + storedTranscripts(userDataDir).join('');
}

/** Each kept transcript on its own (one conversation each), for checks that must not mix conversations. */
export function storedTranscripts(userDataDir: string): string[] {
  const root = foldersRoot(userDataDir);
  if (!existsSync(root)) return [];
  const texts: string[] = [];
  for (const folder of readdirSync(root)) {
    const transcripts = join(root, folder, 'transcripts');
    if (existsSync(transcripts)) for (const file of readdirSync(transcripts)) texts.push(readFileSync(join(transcripts, file), 'utf8'));
  }
  return texts;
}

function foldersRoot(userDataDir: string): string {
  return join(userDataDir, 'User', 'globalStorage', extensionId, 'folders');
}

/**
 * The conversation of ACP session `sessionId` is on disk the way a restart reopens it: an index lists
 * it as an open tab and its transcript holds `turns` finished turns. VS Code may be stopped before
 * its last debounced save, so a restart test waits for this instead of for a text somewhere.
 */
export function storedAsOpenTab(userDataDir: string, sessionId: string, turns: number): boolean {
  const root = foldersRoot(userDataDir);
  if (!existsSync(root)) return false;
  for (const folder of readdirSync(root)) {
    const indexFile = join(root, folder, 'conversations.json');
    if (!existsSync(indexFile)) continue;
    let index: { conversations?: Array<{ id: string; sessionId?: string }>; openIds?: string[] };
    try {
      index = JSON.parse(readFileSync(indexFile, 'utf8')) as typeof index;
    } catch {
      continue; // being replaced: the next poll reads it whole
    }
    const meta = index.conversations?.find((c) => c.sessionId === sessionId);
    if (!meta || !index.openIds?.includes(meta.id)) continue;
    const transcript = join(root, folder, 'transcripts', `${meta.id}.json`);
    if (!existsSync(transcript)) continue;
    if ((readFileSync(transcript, 'utf8').match(/"kind":"turn_end"/g) ?? []).length >= turns) return true;
  }
  return false;
}
