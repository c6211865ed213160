import * as l10n from '@vscode/l10n';
import { isRecord } from '../protocol/guards';
import { code, text } from '../util/markdownText';
import { shownUrl } from '../util/secretShapes';
import type { DoctorReport } from './agentDiagnosis';

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/**
 * Check Agent's section for a hosted chat API (the bridge's own check): whether the key is accepted,
 * whether the configured context is enough for the allowed tools (the validation-only request), and
 * the server's tools with what each needs. Untrusted data from the server: escaped, never markup.
 */
export function hostedLines(hosted: NonNullable<DoctorReport['hosted']>): { lines: string[]; steps: string[] } {
  const lines = [`## ${l10n.t('Hosted API')}`, ''];
  const steps: string[] = [];
  if ('error' in hosted) {
    lines.push(`❌ ${text(l10n.t('The check of the API failed: {0}', hosted.error))}`, '');
    return { lines, steps };
  }
  const r = isRecord(hosted.result) ? hosted.result : {};
  lines.push('| | |', '| --- | --- |');
  // Shown without credentials even from a bridge that repeats its address whole.
  if (typeof r.url === 'string') lines.push(`| ${l10n.t('Address')} | ${code(shownUrl(r.url))} |`);
  if (typeof r.format === 'string') lines.push(`| ${l10n.t('Format')} | ${code(r.format)} |`);
  const auth = typeof r.auth === 'string' ? r.auth : 'unknown';
  const authText: Record<string, string> = {
    ok: `✅ ${l10n.t('accepted')}`,
    missing: `❌ ${l10n.t('the server wants an API key and none is set')}`,
    rejected: `❌ ${l10n.t('the server refused the key')}`,
    unknown: `— ${l10n.t('not known')}`,
  };
  lines.push(`| ${l10n.t('API key')} | ${authText[auth] ?? authText.unknown} |`, '');
  if (auth === 'missing' || auth === 'rejected')
    steps.push(l10n.t('Start a conversation with the agent and use its sign-in card to enter the API key (it is kept in VS Code’s secret storage).'));
  const validation = isRecord(r.validation) ? r.validation : undefined;
  if (validation) {
    const missing = strings(validation.missingContext);
    const tools = strings(validation.tools);
    if (validation.ok === true && missing.length === 0) lines.push(`✅ ${l10n.t('The configured context is enough for the allowed tools.')}`, '');
    else {
      lines.push(
        `❌ ${l10n.t('Missing context: {0}', missing.map(code).join(', ') || '—')}${tools.length ? ` — ${l10n.t('needed by {0}', tools.map(code).join(', '))}` : ''}`,
        '',
      );
      steps.push(l10n.t('Add the missing keys to `body.context` of this agent in `tandem.agents`.'));
    }
  }
  const list = Array.isArray(r.tools) ? r.tools.filter(isRecord) : [];
  if (list.length > 0) {
    lines.push(`| ${l10n.t('Tool')} | ${l10n.t('Needs')} | ${l10n.t('What it does')} |`, '| --- | --- | --- |');
    for (const tool of list.slice(0, 200)) {
      const needs = strings(tool.requiredContext);
      lines.push(
        `| ${code(String(tool.name ?? '?'))} | ${needs.length ? needs.map(code).join(', ') : '—'} | ${text(typeof tool.description === 'string' ? tool.description : '')} |`,
      );
    }
    lines.push('');
  }
  for (const problem of strings(r.problems)) lines.push(`- ⚠️ ${text(problem)}`);
  if (strings(r.problems).length > 0) lines.push('');
  return { lines, steps };
}
