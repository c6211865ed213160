/**
 * Configures the panel's language before any component renders: the host puts its display language
 * and string bundle in a JSON data block (src/views/webviewHtml.ts), and every panel string goes
 * through `l10n.t` from `@vscode/l10n`, like the host's. Imported first by main.ts, so it runs
 * before the modules that render are evaluated. Without the block (or with a bad one) the panel
 * stays in English, its source language.
 */
import * as l10n from '@vscode/l10n';
import type { PanelLocale } from '../../src/protocol/displayLanguage';
import { PANEL_LOCALE_ELEMENT_ID, setDisplayLanguage } from '../../src/protocol/displayLanguage';
import { isRecord } from '../../src/protocol/guards';

function readLocale(): PanelLocale | undefined {
  const text = document.getElementById(PANEL_LOCALE_ELEMENT_ID)?.textContent;
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (!isRecord(value) || typeof value.language !== 'string') return undefined;
    return isRecord(value.bundle) ? { language: value.language, bundle: value.bundle as PanelLocale['bundle'] } : { language: value.language };
  } catch (err) {
    console.error('Tandem: the language data of the page is not valid JSON', err);
    return undefined;
  }
}

const locale = readLocale();
if (locale?.bundle) l10n.config({ contents: locale.bundle });
setDisplayLanguage(locale?.language);
