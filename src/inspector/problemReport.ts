import * as l10n from '@vscode/l10n';
import { code, fence, text } from '../util/markdownText';
import type { ConformanceSummary } from './conformance';

/** Everything a problem report says, gathered by the editor side (all of it already redacted). */
export interface ProblemReportInput {
  tandemVersion: string;
  editor: string;
  platform: string;
  protocolVersion: number;
  sdkVersion?: string;
  agent?: { name: string; commandLine?: string; info?: { name?: string; version?: string; title?: string } };
  conversation?: { title: string; session?: string };
  /** The transcript's file name, next to the report. */
  transcriptFile: string;
  messages: number;
  dropped: number;
  redactions: number;
  conformance: ConformanceSummary;
  /** The last JSON-RPC errors of the conversation, as `method: code message`. */
  errors: string[];
  /** The agent's last stderr lines. */
  stderr: string[];
  createdAt: string;
}

/**
 * The conformance findings as markdown lines: counts by rule and the first few texts. `where`
 * says what was checked ("this check's handshake", "conversations with X").
 */
export function conformanceLines(summary: ConformanceSummary, where: string): string[] {
  const out: string[] = [];
  if (summary.checked === 0) return [l10n.t('{0}: no messages from the agent yet.', where)];
  if (summary.warnings + summary.errors === 0)
    return [`✅ ${l10n.t('{0}: {1} messages from the agent checked, no conformance warnings.', where, summary.checked)}`];
  out.push(`⚠️ ${l10n.t('{0}: {1} messages from the agent checked: {2} errors, {3} warnings.', where, summary.checked, summary.errors, summary.warnings)}`, '');
  const rules = Object.entries(summary.byRule).sort((a, b) => b[1] - a[1]);
  out.push(`| ${l10n.t('Rule')} | ${l10n.t('Count')} |`, '| --- | --- |', ...rules.map(([rule, n]) => `| ${code(rule)} | ${n} |`), '');
  for (const sample of summary.samples) out.push(`- ${text(sample)}`);
  return out;
}

/** The report, as markdown an issue can take as it is. Agent- and user-supplied text is escaped. */
export function renderProblemReport(r: ProblemReportInput): string {
  const out: string[] = [];
  out.push(`# ${l10n.t('Tandem problem report')}`, '', l10n.t('Created {0}.', r.createdAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')), '');
  out.push(`## ${l10n.t('What happened')}`, '', `_${l10n.t('Describe what you did, what you expected, and what happened instead.')}_`, '');
  out.push(`## ${l10n.t('Environment')}`, '', '| | |', '| --- | --- |');
  out.push(`| Tandem | ${code(r.tandemVersion)} |`, `| ${l10n.t('Editor')} | ${code(r.editor)} |`, `| ${l10n.t('Platform')} | ${code(r.platform)} |`);
  out.push(`| ACP | ${code(l10n.t('protocol {0}, SDK {1}', r.protocolVersion, r.sdkVersion ?? '?'))} |`, '');
  if (r.agent) {
    const info = r.agent.info;
    const who = info ? `${info.title ?? info.name ?? ''} ${info.version ?? ''}`.trim() : '';
    out.push(`## ${l10n.t('Agent')}`, '', '| | |', '| --- | --- |', `| ${l10n.t('Name')} | ${text(r.agent.name)} |`);
    if (who) out.push(`| ${l10n.t('Calls itself')} | ${text(who)} |`);
    if (r.agent.commandLine) out.push(`| ${l10n.t('Command')} | ${code(r.agent.commandLine)} |`);
    out.push('');
  }
  out.push(`## ${l10n.t('Protocol')}`, '');
  if (r.conversation)
    out.push(
      l10n.t('Conversation: {0}', text(r.conversation.title || l10n.t('(untitled)'))) + (r.conversation.session ? ` (${code(r.conversation.session)})` : ''),
      '',
    );
  out.push(l10n.t('{0} messages in {1}; {2} values masked.', r.messages, code(r.transcriptFile), r.redactions));
  if (r.dropped > 0) out.push('', l10n.t('The recording had already dropped its {0} oldest messages (it keeps the last 100,000).', r.dropped));
  out.push('', ...conformanceLines(r.conformance, l10n.t('Conformance')), '');
  if (r.errors.length > 0) out.push(`### ${l10n.t('Errors the agent answered with')}`, '', ...r.errors.map((e) => `- ${text(e)}`), '');
  out.push(
    `## ${l10n.t('Agent stderr (last lines)')}`,
    '',
    r.stderr.length > 0 ? fence(r.stderr.join('\n')) : l10n.t('The agent wrote nothing to stderr in this window.'),
    '',
  );
  out.push(
    `## ${l10n.t('Attachments')}`,
    '',
    `- ${code(r.transcriptFile)}: ${l10n.t('every message both ways, secrets masked. Anyone can replay it with `{0}` (no model, account or network needed).', l10n.t('Tandem: Replay Transcript…'))}`,
    '',
  );
  out.push(
    `_${l10n.t('Read both files before you attach them: masking catches keys and configured values, not everything private (file contents the agent read are in the transcript).')}_`,
    '',
  );
  return out.join('\n');
}
