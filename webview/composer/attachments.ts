/**
 * What can be pasted or dropped on the composer. Files and editor tabs dragged from VS Code arrive
 * as URI lists: the host resolves them (it knows the workspace) and answers with chips. Images
 * pasted or dropped from elsewhere are read here, as base64, within a size limit. Anything else is
 * left to the browser (text pastes and drops into the message box as usual).
 */
import * as l10n from '@vscode/l10n';
import { formatNumber } from '../../src/protocol/displayLanguage';
import type { MentionChip } from '../../src/protocol/messages';

/** The image types ACP agents take (the formats model APIs accept). */
export const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
/** Per image: bigger ones are refused (model APIs cap images at about this size). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** Audio clips a prompt can carry (sent only to agents that advertise `promptCapabilities.audio`). */
export const AUDIO_TYPES: ReadonlySet<string> = new Set([
  'audio/wav',
  'audio/x-wav',
  'audio/mpeg',
  'audio/mp3',
  'audio/ogg',
  'audio/webm',
  'audio/flac',
  'audio/mp4',
]);

/** VS Code's own list (explorer, editor tabs), the standard one, and the one VS Code's explorer adds. */
const URI_LIST_TYPES = ['application/vnd.code.uri-list', 'text/uri-list'];
const RESOURCE_URLS = 'resourceurls';

export interface AttachmentHandlers {
  addChips(chips: MentionChip[]): void;
  dropUris(uris: string[]): void;
  /** A short sentence for the composer (something was not added, and why). */
  notify(message: string): void;
}

function megabytes(bytes: number): string {
  return `${formatNumber(bytes / (1024 * 1024), { minimumFractionDigits: 1, maximumFractionDigits: 1 })} MB`;
}

function kilobytes(bytes: number): string {
  return bytes < 1024 * 1024 ? `${formatNumber(Math.max(1, Math.round(bytes / 1024)))} KB` : megabytes(bytes);
}

/** URIs in a drag, in order, once each: `#` lines are comments in a uri-list (RFC 2483). */
export function droppedUris(data: DataTransfer): string[] {
  const uris: string[] = [];
  const types = Array.from(data.types);
  for (const type of URI_LIST_TYPES) {
    if (!types.includes(type)) continue;
    for (const line of data.getData(type).split(/\r?\n/)) {
      const uri = line.trim();
      if (uri !== '' && !uri.startsWith('#')) uris.push(uri);
    }
  }
  if (types.includes(RESOURCE_URLS)) {
    try {
      const parsed: unknown = JSON.parse(data.getData(RESOURCE_URLS));
      if (Array.isArray(parsed)) for (const uri of parsed) if (typeof uri === 'string' && uri !== '') uris.push(uri);
    } catch {
      // Not the JSON array VS Code writes: nothing to take from it.
    }
  }
  return [...new Set(uris)];
}

function carriesContext(data: DataTransfer | null): boolean {
  if (!data) return false;
  const types = Array.from(data.types);
  return types.includes('Files') || types.includes(RESOURCE_URLS) || URI_LIST_TYPES.some((t) => types.includes(t));
}

/** Why a file cannot be attached, or undefined when it can. */
export function refusal(file: File): string | undefined {
  const name = file.name || l10n.t('The file');
  const audio = AUDIO_TYPES.has(file.type);
  if (!IMAGE_TYPES.has(file.type) && !audio)
    return l10n.t('{0} was not added: only PNG, JPEG, GIF and WebP images (or WAV, MP3, OGG, WebM, FLAC audio) can be attached.', name);
  if (file.size > MAX_IMAGE_BYTES) {
    return audio
      ? l10n.t('{0} was not added: it is {1}, and audio clips are limited to {2}.', name, megabytes(file.size), megabytes(MAX_IMAGE_BYTES))
      : l10n.t('{0} was not added: it is {1}, and images are limited to {2}.', name, megabytes(file.size), megabytes(MAX_IMAGE_BYTES));
  }
  return undefined;
}

/** Reads an image into a chip (base64 without the `data:` prefix, as ACP wants it). */
export function readImage(file: File): Promise<MentionChip> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(reader.error ?? new Error(`could not read ${file.name}`));
    reader.onload = () => {
      const url = String(reader.result);
      const comma = url.indexOf(',');
      const kind = AUDIO_TYPES.has(file.type) ? 'audio' : 'image';
      const name = file.name || `pasted ${kind}`;
      resolve({
        spec: { kind, name, mimeType: file.type, data: comma >= 0 ? url.slice(comma + 1) : '' },
        view: {
          kind,
          label: name,
          icon: kind === 'audio' ? 'mic' : 'file-media',
          detail: kind === 'audio' ? l10n.t('{0} (audio, {1})', name, kilobytes(file.size)) : l10n.t('{0} (image, {1})', name, kilobytes(file.size)),
        },
      });
    };
    reader.readAsDataURL(file);
  });
}

/** Listens for pastes and drops on `target` (the composer) and shows a highlight while dragging. */
export class Attachments {
  constructor(
    private readonly target: HTMLElement,
    private readonly handlers: AttachmentHandlers,
  ) {
    target.addEventListener('paste', (event) => this.paste(event));
    const over = (event: DragEvent): void => {
      if (!carriesContext(event.dataTransfer)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
      target.classList.add('drop-target');
    };
    target.addEventListener('dragenter', over);
    target.addEventListener('dragover', over);
    target.addEventListener('dragleave', (event) => {
      // Moving between the composer's own children fires dragleave too.
      if (event.relatedTarget instanceof Node && target.contains(event.relatedTarget)) return;
      target.classList.remove('drop-target');
    });
    target.addEventListener('drop', (event) => this.drop(event));
  }

  /** Images (and only when the clipboard has no text: copying from an office app gives both). */
  private paste(event: ClipboardEvent): void {
    const data = event.clipboardData;
    if (!data || data.files.length === 0 || data.getData('text/plain') !== '') return;
    event.preventDefault();
    void this.addFiles(Array.from(data.files));
  }

  /** URIs win over files: a file dragged from VS Code's explorer is better read by the host. */
  private drop(event: DragEvent): void {
    this.target.classList.remove('drop-target');
    const data = event.dataTransfer;
    if (!data) return;
    const uris = droppedUris(data);
    if (uris.length > 0) {
      event.preventDefault();
      this.handlers.dropUris(uris);
    } else if (data.files.length > 0) {
      event.preventDefault();
      void this.addFiles(Array.from(data.files));
    }
  }

  async addFiles(files: File[]): Promise<void> {
    const messages: string[] = [];
    const readable: File[] = [];
    for (const file of files) {
      const reason = refusal(file);
      if (reason) messages.push(reason);
      else readable.push(file);
    }
    const chips: MentionChip[] = [];
    const results = await Promise.allSettled(readable.map(readImage));
    results.forEach((result, i) => {
      if (result.status === 'fulfilled') chips.push(result.value);
      else messages.push(l10n.t('{0} could not be read.', readable[i].name || l10n.t('The image')));
    });
    if (chips.length > 0) this.handlers.addChips(chips);
    if (messages.length > 0) this.handlers.notify(messages.join(' '));
  }
}
