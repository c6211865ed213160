/**
 * Accessibility checks inside the panel's document: axe-core (WCAG 2.0/2.1 A and AA plus best
 * practices) and what axe cannot judge, the focus indicator of the focused element (style, width
 * and contrast against what it is drawn on).
 */
import { readFileSync } from 'node:fs';
import type { Frame, Page } from 'playwright-core';

/** The panel's document: the harness's page, or the webview's frame inside VS Code (e2e). */
export type PanelDocument = Page | Frame;

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

export interface Finding {
  rule: string;
  impact: string;
  help: string;
  /** Each failing element: its selector and axe's summary of what is wrong. */
  nodes: string[];
}

export interface Audit {
  violations: Finding[];
  /** What axe could not decide (e.g. a contrast over an image): looked at, not failed on. */
  incomplete: Finding[];
}

/**
 * The test loader names the functions it compiles (`__name(fn, "shape")`): callbacks evaluated in
 * the page call that helper, which only exists in Node. The page gets a do-nothing one.
 */
async function nameHelper(page: PanelDocument): Promise<void> {
  await page.evaluate('globalThis.__name ??= (fn) => fn');
}

/** Runs axe over the whole document (the page's CSP does not apply to script evaluated by the driver). */
export async function audit(page: PanelDocument): Promise<Audit> {
  await nameHelper(page);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (tags) => {
    interface AxeResult {
      id: string;
      impact?: string | null;
      help: string;
      nodes: Array<{ target: unknown[]; failureSummary?: string }>;
    }
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: AxeResult[]; incomplete: AxeResult[] }> } }).axe;
    const results = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations', 'incomplete'] });
    const shape = (r: AxeResult) => ({
      rule: r.id,
      impact: r.impact ?? 'unknown',
      help: r.help,
      nodes: r.nodes.map((n) => `${n.target.map(String).join(' ')}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ').trim()}`),
    });
    return { violations: results.violations.map(shape), incomplete: results.incomplete.map(shape) };
  }, TAGS);
}

/** The violations a release may not have: serious and critical. */
export function blocking(findings: readonly Finding[]): Finding[] {
  return findings.filter((f) => f.impact === 'serious' || f.impact === 'critical');
}

/** One readable line per failing element. */
export function describe(findings: readonly Finding[]): string {
  return findings.flatMap((f) => f.nodes.map((n) => `[${f.impact}] ${f.rule} (${f.help}): ${n}`)).join('\n');
}

/** A theme variable's colour as computed styles write it (`rgb(0, 120, 212)`), to compare with one. */
export function themeColour(page: PanelDocument, variable: string): Promise<string> {
  return page.evaluate((name) => {
    const probe = document.createElement('span');
    probe.style.color = `var(${name})`;
    document.body.append(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  }, variable);
}

export interface FocusIndicator {
  /** The focused element, e.g. `select.agent-picker "Agent"`. */
  element: string;
  outlineStyle: string;
  outlineWidth: number;
  outlineColor: string;
  /** What the outline is drawn on: the element's own background (inset outline) or its surroundings'. */
  background: string;
  /** Contrast of the outline against that background (WCAG formula). */
  contrast: number;
}

/** The focused element's outline, and its contrast with the colour under it. */
export async function focusIndicator(page: PanelDocument): Promise<FocusIndicator | undefined> {
  await nameHelper(page);
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!(el instanceof HTMLElement) || el === document.body) return undefined;
    const parse = (value: string): number[] => {
      const m = /rgba?\(([^)]+)\)/.exec(value);
      if (!m) return [0, 0, 0, 0];
      const p = m[1]
        .split(/[\s,/]+/)
        .filter(Boolean)
        .map(Number);
      return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
    };
    const over = (top: number[], under: number[]): number[] => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat(1);
    // Composites the backgrounds from `from` up to the first opaque one (white below everything).
    const backgroundOf = (from: Element | null): number[] => {
      const layers: number[][] = [];
      for (let e = from; e; e = e.parentElement) {
        const c = parse(getComputedStyle(e).backgroundColor);
        if (c[3] > 0) layers.push(c);
        if (c[3] >= 1) break;
      }
      return layers.reverse().reduce((under, top) => over(top, under), [255, 255, 255, 1]);
    };
    const luminance = (c: number[]): number => {
      const [r, g, b] = c.slice(0, 3).map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const style = getComputedStyle(el);
    const inset = Number.parseFloat(style.outlineOffset) + Number.parseFloat(style.outlineWidth) <= 0;
    const background = backgroundOf(inset ? el : el.parentElement);
    const outline = over(parse(style.outlineColor), background);
    const [a, b] = [luminance(outline), luminance(background)];
    const name = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? '';
    return {
      element: `${el.tagName.toLowerCase()}${el.classList.length > 0 ? `.${[...el.classList].join('.')}` : ''} "${name}"`,
      outlineStyle: style.outlineStyle,
      outlineWidth: Number.parseFloat(style.outlineWidth),
      outlineColor: style.outlineColor,
      background: `rgb(${background.slice(0, 3).map(Math.round).join(', ')})`,
      contrast: Math.round(((Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)) * 100) / 100,
    };
  });
}
