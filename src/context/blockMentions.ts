/**
 * Mentions inside content blocks the agent sends back — a user message replayed by
 * `session/load` — shown as chips again rather than as their whole text.
 */
import * as l10n from '@vscode/l10n';
import type * as acp from '@agentclientprotocol/sdk';
import { isRecord } from '../protocol/guards';
import { mentionViewFromUri } from './mentions';
import type { MentionDisplayOptions, MentionView } from './mentions';

/**
 * The view of a block of a user message (e.g. one an agent replays with `session/load`), for the
 * thread; undefined for text and for URIs that are not Tandem's (shown as plain links instead).
 */
export function mentionViewFromBlock(block: acp.ContentBlock, opts: MentionDisplayOptions = {}): MentionView | undefined {
  switch (block.type) {
    case 'resource_link':
      return mentionViewFromUri(block.uri, opts);
    case 'resource':
      return mentionViewFromUri(block.resource.uri, opts);
    case 'image':
      return { kind: 'image', label: l10n.t('Image'), icon: 'file-media', ...(block.uri ? { uri: block.uri } : {}) };
    case 'audio':
      return { kind: 'audio', label: l10n.t('Audio'), icon: 'mic' };
    default:
      return undefined;
  }
}

/** The chip of a replayed user block that points at something (a well-formed link or resource). */
export function replayedMention(content: unknown): MentionView | undefined {
  if (!isRecord(content)) return undefined;
  const uri = content.type === 'resource_link' ? content.uri : content.type === 'resource' && isRecord(content.resource) ? content.resource.uri : undefined;
  return typeof uri === 'string' ? mentionViewFromBlock(content as unknown as acp.ContentBlock) : undefined;
}
