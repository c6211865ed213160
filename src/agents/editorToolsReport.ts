import * as l10n from '@vscode/l10n';
import { formatNumber } from '../protocol/displayLanguage';
import { code, text } from '../util/markdownText';
import type { EditorToolsFinding, EditorToolsOff, ToolListing } from './editorToolsCheck';
import type { TandemMcpTransport } from '../mcp/mcpServerEntry';

/**
 * Check Agent's section on the `tandem` MCP server (editorToolsCheck.ts): the transport the agent
 * gets for it, or why it gets none, and whether its MCP client listed the tools.
 */
export function editorToolsLines(finding: EditorToolsFinding): string[] {
  const lines = [`## ${l10n.t('Editor tools (the {0} MCP server)', code('tandem'))}`, '', '| | |', '| --- | --- |'];
  if (finding.transport === 'off') {
    lines.push(`| ${l10n.t('Transport')} | — ${l10n.t('off: {0}', offReason(finding.reason))} |`, '');
    return lines;
  }
  lines.push(`| ${l10n.t('Transport')} | ${transportName(finding.transport)} |`, `| ${l10n.t('Tools')} | ${listingText(finding.listing)} |`, '');
  return lines;
}

export function transportName(transport: TandemMcpTransport): string {
  switch (transport) {
    case 'acp':
      return l10n.t('MCP over ACP (on the agent’s own connection)');
    case 'http':
      return l10n.t('loopback HTTP (127.0.0.1, a bearer token per session)');
    case 'stdio':
      return l10n.t('stdio (the agent takes neither MCP over ACP nor HTTP servers)');
    default: {
      const never: never = transport;
      return String(never);
    }
  }
}

function offReason(reason: EditorToolsOff): string {
  switch (reason) {
    case 'setting':
      return l10n.t('{0} is false', code('tandem.editorTools'));
    case 'untrusted':
      return l10n.t('the workspace is not trusted');
    case 'nameTaken':
      return l10n.t('one of your MCP servers is already named {0} (yours is kept)', code('tandem'));
    default: {
      const never: never = reason;
      return String(never);
    }
  }
}

function listingText(listing: ToolListing): string {
  const seconds = (ms: number): string => formatNumber(ms / 1000, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  switch (listing.state) {
    case 'listed':
      return `✅ ${l10n.t('listed the tools ({0} s after the session was asked for)', seconds(listing.afterMs))}`;
    case 'notListed':
      return `⚠️ ${l10n.t('did not list the tools within {0} s (agents may load MCP tools only when the model asks for them)', seconds(listing.waitedMs))}`;
    case 'noSession':
      return `— ${l10n.t('not checked: the check could not open a session ({0})', text(listing.message))}`;
    case 'notChecked':
      return `— ${l10n.t('not checked over this transport yet')}`;
    default: {
      const never: never = listing;
      return String(never);
    }
  }
}
