/**
 * MIME types by file extension, for the `mimeType` of links and embedded resources, and which
 * extensions are binary (linked, never read as text). Deliberately small: an unknown extension
 * gets no MIME type, and its file is read and sniffed for NUL bytes like any other.
 */

export interface FileType {
  /** Undefined when the extension is not known. */
  mimeType?: string;
  /** True for formats that are never text (images, archives, media, fonts, executables). */
  binary: boolean;
}

const TEXT: Record<string, string> = {
  txt: 'text/plain',
  log: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  csv: 'text/csv',
  js: 'text/javascript',
  mjs: 'text/javascript',
  cjs: 'text/javascript',
  jsx: 'text/javascript',
  ts: 'text/x-typescript',
  mts: 'text/x-typescript',
  cts: 'text/x-typescript',
  tsx: 'text/x-typescript',
  json: 'application/json',
  xml: 'application/xml',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  toml: 'application/toml',
  sql: 'application/sql',
  svg: 'image/svg+xml',
  py: 'text/x-python',
  rs: 'text/x-rust',
  go: 'text/x-go',
  java: 'text/x-java',
  kt: 'text/x-kotlin',
  c: 'text/x-c',
  h: 'text/x-c',
  cc: 'text/x-c++',
  cpp: 'text/x-c++',
  hpp: 'text/x-c++',
  cs: 'text/x-csharp',
  rb: 'text/x-ruby',
  php: 'text/x-php',
  swift: 'text/x-swift',
  sh: 'text/x-shellscript',
  bash: 'text/x-shellscript',
  diff: 'text/x-diff',
  patch: 'text/x-diff',
};

const BINARY: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  ico: 'image/vnd.microsoft.icon',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  pdf: 'application/pdf',
  zip: 'application/zip',
  gz: 'application/gzip',
  tgz: 'application/gzip',
  tar: 'application/x-tar',
  '7z': 'application/x-7z-compressed',
  jar: 'application/java-archive',
  wasm: 'application/wasm',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
  sqlite: 'application/vnd.sqlite3',
  exe: 'application/octet-stream',
  dll: 'application/octet-stream',
  so: 'application/octet-stream',
  dylib: 'application/octet-stream',
  bin: 'application/octet-stream',
  o: 'application/octet-stream',
  a: 'application/octet-stream',
  class: 'application/octet-stream',
  pyc: 'application/octet-stream',
};

/** Type of the file at `path` by its extension (case-insensitive; either separator). */
export function fileTypeOf(path: string): FileType {
  const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return { binary: false };
  const ext = name.slice(dot + 1).toLowerCase();
  if (Object.hasOwn(BINARY, ext)) return { mimeType: BINARY[ext], binary: true };
  if (Object.hasOwn(TEXT, ext)) return { mimeType: TEXT[ext], binary: false };
  return { binary: false };
}
