/**
 * Conversations on disk, one JSON file per session in the state folder, so `session/load` works
 * after the bridge (or the editor) restarts. Writes are atomic and serialised per file; a file that
 * does not parse is reported and skipped, never fatal. Holds no secret, but the conversations are
 * the user's own: files are written 0600 and the folders created 0700 (other local users may read
 * neither).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import { isRecord } from '../protocol/guards';
import { FileWriteQueue } from '../util/atomicFile';
import type { KeptNotice } from './updates';
import { parseMessages, plainText, type UIMessage, type Warn } from './types';

export interface StoredSession {
  sessionId: string;
  cwd: string;
  title?: string;
  createdAt: string;
  updatedAt: string;
  messages: UIMessage[];
  notices: KeptNotice[];
  /** Tool names the user allowed for the rest of the conversation ("Allow always"). */
  alwaysAllow: string[];
}

const VERSION = 1;
/** Session ids become file names: nothing that could leave the folder. */
const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;

export function isSafeSessionId(id: string): boolean {
  return SAFE_ID.test(id);
}

/** A title from the first user message (what a history list shows). */
export function titleOf(messages: readonly UIMessage[]): string | undefined {
  const first = messages.find((m) => m.role === 'user');
  const text = first ? plainText(first).replace(/\s+/g, ' ').trim() : '';
  return text === '' ? undefined : text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

export class SessionStore {
  private readonly queue = new FileWriteQueue({ file: 0o600, dir: 0o700 });
  /** Sessions deleted while this process runs: never written again. */
  private readonly deleted = new Set<string>();

  constructor(
    readonly dir: string,
    private readonly warn: Warn,
  ) {}

  private file(sessionId: string): string {
    return path.join(this.dir, `${sessionId}.json`);
  }

  async save(s: StoredSession): Promise<void> {
    // A turn aborted by its conversation's deletion saves as it ends: the deletion wins.
    if (this.deleted.has(s.sessionId)) return;
    s.updatedAt = new Date().toISOString();
    s.title = titleOf(s.messages) ?? s.title;
    try {
      await this.queue.write(this.file(s.sessionId), JSON.stringify({ version: VERSION, ...s }));
    } catch (err) {
      this.warn(`Could not save the conversation to ${this.dir}: ${(err as Error).message}`);
    }
  }

  load(sessionId: string): StoredSession | undefined {
    if (!isSafeSessionId(sessionId)) return undefined;
    let text: string;
    try {
      text = fs.readFileSync(this.file(sessionId), 'utf8');
    } catch {
      return undefined;
    }
    return this.parse(sessionId, text);
  }

  /** Sessions of `cwd` (all when undefined), newest first. */
  list(cwd?: string): acp.SessionInfo[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir).filter((n) => n.endsWith('.json'));
    } catch {
      return [];
    }
    const out: acp.SessionInfo[] = [];
    for (const name of names) {
      const s = this.load(name.slice(0, -'.json'.length));
      if (!s || (cwd !== undefined && s.cwd !== cwd)) continue;
      out.push({ sessionId: s.sessionId, cwd: s.cwd, title: s.title ?? null, updatedAt: s.updatedAt });
    }
    return out.sort((a, b) => (b.updatedAt ?? '').localeCompare(a.updatedAt ?? ''));
  }

  async remove(sessionId: string): Promise<void> {
    if (!isSafeSessionId(sessionId)) return;
    this.deleted.add(sessionId);
    await this.queue.remove(this.file(sessionId));
  }

  /** Waits for every pending write (tests, shutdown). */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  private parse(sessionId: string, text: string): StoredSession | undefined {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      this.warn(`Skipped ${this.file(sessionId)}: it is not valid JSON.`);
      return undefined;
    }
    if (!isRecord(raw) || raw.version !== VERSION || typeof raw.cwd !== 'string') {
      this.warn(`Skipped ${this.file(sessionId)}: not a conversation this bridge wrote.`);
      return undefined;
    }
    let n = 0;
    const notices = Array.isArray(raw.notices)
      ? raw.notices.filter((x): x is KeptNotice => isRecord(x) && typeof x.after === 'number' && typeof x.text === 'string' && typeof x.kind === 'string')
      : [];
    return {
      sessionId,
      cwd: raw.cwd,
      ...(typeof raw.title === 'string' ? { title: raw.title } : {}),
      createdAt: typeof raw.createdAt === 'string' ? raw.createdAt : new Date(0).toISOString(),
      updatedAt: typeof raw.updatedAt === 'string' ? raw.updatedAt : new Date(0).toISOString(),
      messages: parseMessages(raw.messages, this.warn, () => `restored-${++n}`),
      notices,
      alwaysAllow: strings(raw.alwaysAllow),
    };
  }
}
