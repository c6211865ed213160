// What Tandem keeps on disk in a code-server profile: per folder, in the extension's global storage
// (src/session/folderStorage.ts), an index and one transcript per conversation.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extensionId } from './paths';

/** Every folder's index and transcripts, concatenated (tests look for texts in it). */
export function storedConversations(userDataDir: string): string {
  const root = join(userDataDir, 'User', 'globalStorage', extensionId, 'folders');
  if (!existsSync(root)) return '';
  let text = '';
  for (const folder of readdirSync(root)) {
    const index = join(root, folder, 'conversations.json');
    if (existsSync(index)) text += readFileSync(index, 'utf8');
    const transcripts = join(root, folder, 'transcripts');
    if (existsSync(transcripts)) for (const file of readdirSync(transcripts)) text += readFileSync(join(transcripts, file), 'utf8');
  }
  return text;
}
