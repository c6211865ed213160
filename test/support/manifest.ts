// package.json as VS Code shows it: every `%key%` placeholder replaced by its text from
// package.nls.json, or from package.nls.<language>.json when a language is given (falling back to
// English for a key that file lacks, as VS Code does).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export function readNls(root: string, language?: string): Record<string, string> {
  const english = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
  const file = join(root, `package.nls.${language}.json`);
  if (!language || !existsSync(file)) return english;
  return { ...english, ...(JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) };
}

export function readLocalizedManifest(root: string, language?: string): unknown {
  const nls = readNls(root, language);
  return JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'), (_key, value: unknown) => {
    if (typeof value !== 'string') return value;
    const m = /^%(.+)%$/.exec(value);
    return m && m[1] in nls ? nls[m[1]] : value;
  });
}
