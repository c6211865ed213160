import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { PanelLocale } from '../../protocol/displayLanguage';
import { setDisplayLanguage } from '../../protocol/displayLanguage';

/**
 * Every string of Tandem goes through `@vscode/l10n`'s `l10n.t` — the core and the panel cannot
 * import `vscode`, and one call everywhere keeps one extraction and one bundle. VS Code has already
 * loaded the bundle of its display language (`vscode.l10n.bundle`, from l10n/ as package.json's
 * `l10n` names it); this hands it to `@vscode/l10n` in this bundle (dist/host.js) and sets the
 * language `Intl` formats in. Run once, before anything is shown: `l10n.t` reads the bundle at each
 * call, so strings are looked up when they are used, never at module load.
 */
export function configureLocalization(): void {
  const bundle = vscode.l10n.bundle;
  if (bundle) l10n.config({ contents: bundle });
  setDisplayLanguage(vscode.env.language);
}

/** The language and bundle the panel renders with: the same ones as the host. */
export function panelLocale(): PanelLocale {
  const bundle = vscode.l10n.bundle;
  return bundle ? { language: vscode.env.language, bundle } : { language: vscode.env.language };
}
