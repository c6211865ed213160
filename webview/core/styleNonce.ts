/**
 * Libraries that create <style> elements at run time (xterm's DOM renderer does) would need
 * `style-src 'unsafe-inline'`. Instead those elements get the nonce our own <script> tag carries,
 * so the CSP can stay `style-src <cspSource> 'nonce-…'`. Static CSS goes in adopted stylesheets,
 * which CSP does not govern.
 */

const ownScript = document.currentScript as HTMLScriptElement | null;
export const scriptNonce: string = ownScript?.nonce ?? '';
/** Where the panel's bundle came from: its lazily loaded parts lie beside it (codeHighlighter.ts). */
export const scriptSource: string = ownScript?.src ?? '';

/** Runs `fn` while every `<style>` created through `document.createElement` gets our nonce. */
export function withStyleNonce<T>(fn: () => T): T {
  if (!scriptNonce) return fn();
  const original = document.createElement;
  document.createElement = function patched(this: Document, tag: string, options?: ElementCreationOptions): HTMLElement {
    const element = original.call(this, tag, options);
    if (tag.toLowerCase() === 'style') element.setAttribute('nonce', scriptNonce);
    return element;
  } as typeof document.createElement;
  try {
    return fn();
  } finally {
    document.createElement = original;
  }
}

const adopted = new Set<string>();

/** Adds a stylesheet (source text) to the document once, without a <style> element. */
export function adoptStylesheet(key: string, cssText: string): void {
  if (adopted.has(key)) return;
  adopted.add(key);
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(cssText);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
