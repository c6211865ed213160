import * as l10n from '@vscode/l10n';
import { formatNumber } from '../protocol/displayLanguage';
import type { DoctorReport } from './agentDiagnosis';
import type { MovedAdapter } from './movedAdapters';
import { code, fence, text } from '../util/markdownText';
import { conformanceLines } from '../inspector/problemReport';
import { editorToolsLines } from './editorToolsReport';
import { hostedLines } from './hostedReport';
import { remoteSteps, remoteTable } from './remoteReport';

/**
 * The doctor's findings as a markdown document the user can read, copy into an issue, or keep
 * (in the display language, with its time in UTC so an issue reader knows it exactly):
 * what was run, what was found, what the agent says it can do, and what to do next. Everything
 * that came from the agent or the settings is escaped, so it renders as text, never as markup.
 */

/** What to do next, most useful first. Empty when there is nothing to do. */
export function nextSteps(report: DoctorReport): string[] {
  const steps: string[] = [];
  // First: whatever else the check finds, the agent it ran is an old one.
  if (report.moved) steps.push(movedStep(report.moved));
  const missing = report.runtimes.filter((r) => r.required && !r.path);
  for (const runtime of missing) steps.push(l10n.t('{0} is missing. {1}', runtime.name, runtime.hint));
  const { start } = report;
  if (!start.ok && report.remote) return remoteSteps(report);
  if (!start.ok) {
    switch (start.stage) {
      case 'not_found':
        if (missing.length === 0) {
          steps.push(l10n.t('Install {0}, or run `{1}` to install it from the ACP registry.', report.agentName, l10n.t('Tandem: Install Agent…')));
          steps.push(
            l10n.t(
              'If it is installed, put its folder on PATH or set an absolute `command` in `tandem.agents`. VS Code started from a dock or start menu may not see the PATH of your shell: restart it from a terminal.',
            ),
          );
        }
        break;
      case 'spawn':
        if (start.osCode === 'EACCES')
          steps.push(l10n.t('The file is not executable: run `chmod +x {0}`.', report.resolvedCommand ?? report.commandLine.split(' ')[0]));
        else
          steps.push(
            l10n.t(
              'The operating system refused to start the command: check that it is a program for this machine (not a folder or a file for another platform).',
            ),
          );
        break;
      case 'exited':
        steps.push(l10n.t('Read the agent’s stderr below: it usually says why it stopped (a missing login or API key, an unknown option).'));
        steps.push(l10n.t('Check the `args` in `tandem.agents`: many agents need a flag to speak ACP (`--acp`, `acp`, `--experimental-acp`).'));
        break;
      case 'timeout':
        steps.push(
          l10n.t(
            'The agent started but did not answer. A first `npx -y` or `uvx` run downloads the agent and can take minutes: run the command in a terminal once, then check again.',
          ),
        );
        steps.push(l10n.t('If it prints a prompt or help text there, it is not in ACP mode: check the `args` in `tandem.agents`.'));
        break;
      case 'error':
        steps.push(l10n.t('The agent refused the handshake. Update it; if that does not help, report the error above to its authors.'));
        break;
      case 'cancelled':
      case 'connect':
        steps.push(l10n.t('Run `{0}` again to finish the check.', l10n.t('Tandem: Check Agent')));
        break;
    }
    if (/auth|log ?in|api[ _-]?key|unauthori[sz]ed|credential/i.test(report.stderr))
      steps.push(l10n.t('The stderr mentions authentication: sign in with the agent’s own CLI or set its API key in your shell environment.'));
    if (report.proxy?.strictSSLOff) steps.push(strictSslStep());
    return steps;
  }
  if (start.protocolVersion !== report.expectedProtocolVersion) {
    steps.push(
      l10n.t(
        'The agent speaks ACP version {0}; Tandem speaks {1}. Update the agent (or Tandem) so both speak the same version.',
        start.protocolVersion,
        report.expectedProtocolVersion,
      ),
    );
  }
  if (start.authMethods.length > 0)
    steps.push(l10n.t('The agent announces sign-in methods: if a conversation says it needs authentication, sign in with one of them.'));
  if (report.hosted) steps.push(...hostedLines(report.hosted).steps);
  if (report.proxy?.strictSSLOff) steps.push(strictSslStep());
  return steps;
}

/** The adapter moved: what the entry runs, its successor, and how to update. */
export function movedStep(moved: MovedAdapter): string {
  const stopped = moved.lastVersion
    ? l10n.t('This entry runs {0}, which stopped at {1}: the adapter moved to {2}.', code(moved.from), moved.lastVersion, code(moved.to))
    : l10n.t('This entry runs {0}, which is no longer updated: the adapter moved to {1}.', code(moved.from), code(moved.to));
  const how = moved.rewritable
    ? l10n.t('Choose **Update** in the notice beside this report to rewrite the entry (its other fields are kept).')
    : l10n.t('Install {0} on that machine and point the entry at it.', code(moved.to));
  return `${stopped} ${how}`;
}

/** The proxy the agent got, without its credentials (shownProxy), and where it came from. */
function proxyCell(proxy: DoctorReport['proxy']): string {
  if (proxy?.elsewhere) return l10n.t('not passed: the agent runs on another machine through ssh (set the proxy there)');
  if (!proxy?.url) return l10n.t('none (direct connection)');
  const from =
    proxy.origin === 'setting'
      ? l10n.t('from {0}', code('http.proxy'))
      : proxy.origin === 'entry'
        ? l10n.t('from the agent’s {0}', code('env'))
        : l10n.t('from the environment VS Code was started with');
  const parts = [`${code(proxy.url)} (${from})`];
  if (proxy.noProxy) parts.push(`${code('NO_PROXY')} ${code(proxy.noProxy)}`);
  return parts.join(' · ');
}

/** Tandem never turns an agent's certificate checks off for it: what to do instead. */
function strictSslStep(): string {
  return l10n.t(
    '`http.proxyStrictSSL` is off, but Tandem does not turn off the agent’s certificate checks (that would cover every connection it makes). If the proxy signs connections with its own certificate authority, set `NODE_EXTRA_CA_CERTS` to that certificate in the agent’s `env`.',
  );
}

export function renderDoctorReport(report: DoctorReport): string {
  const out: string[] = [];
  out.push(
    `# ${l10n.t('Agent check: {0}', text(report.agentName))}`,
    '',
    l10n.t('Checked {0}.', report.checkedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')),
    '',
  );
  if (report.remote) out.push(...remoteTable(report.remote));
  else {
    out.push('| | |', '| --- | --- |');
    out.push(`| ${l10n.t('Command')} | ${code(report.commandLine)} |`);
    out.push(`| ${l10n.t('Found at')} | ${report.resolvedCommand ? code(report.resolvedCommand) : `**${l10n.t('not found on PATH')}**`} |`);
    out.push(`| ${l10n.t('Working folder')} | ${code(report.cwd)} |`);
    out.push(
      `| ${l10n.t('Environment')} | ${report.envNames.length ? l10n.t('{0} (values hidden)', report.envNames.map(code).join(', ')) : l10n.t('nothing extra')} |`,
      `| ${l10n.t('Proxy')} | ${proxyCell(report.proxy)} |`,
      '',
    );
  }

  out.push(`## ${l10n.t('Result')}`, '');
  const { start } = report;
  if (start.ok) {
    const seconds = formatNumber(start.elapsedMs / 1000, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    const who = start.agentInfo
      ? `${text(start.agentInfo.title ?? start.agentInfo.name)}${start.agentInfo.version ? ` ${text(start.agentInfo.version)}` : ''}`
      : undefined;
    out.push(
      `✅ ${who ? l10n.t('Started and answered `initialize` in {0} s — it calls itself {1}.', seconds, who) : l10n.t('Started and answered `initialize` in {0} s.', seconds)}`,
      '',
    );
    const same = start.protocolVersion === report.expectedProtocolVersion;
    out.push(
      same
        ? l10n.t('Protocol version: {0} (the same as Tandem’s).', start.protocolVersion)
        : l10n.t('Protocol version: {0} ⚠️ (Tandem speaks {1}).', start.protocolVersion, report.expectedProtocolVersion),
      '',
    );
  } else {
    out.push(`❌ ${text(start.message)}`, '');
  }
  if (report.moved) out.push(`⚠️ ${l10n.t('An old adapter: {0} moved to {1} (see what to do next).', code(report.moved.from), code(report.moved.to))}`, '');

  if (report.hosted) out.push(...hostedLines(report.hosted).lines);

  if (report.runtimes.length > 0) {
    out.push(
      `## ${l10n.t('Runtimes')}`,
      '',
      `| ${l10n.t('Runtime')} | ${l10n.t('Needed')} | ${l10n.t('Found at')} | ${l10n.t('Version')} |`,
      '| --- | --- | --- | --- |',
    );
    for (const r of report.runtimes) {
      const found = r.path ? code(r.path) : `❌ ${text(r.problem ?? l10n.t('not found'))}`;
      const version = r.version ? code(r.version) : r.path && r.problem ? `⚠️ ${text(r.problem)}` : '—';
      out.push(`| ${text(r.name)} | ${r.required ? l10n.t('yes') : l10n.t('optional')} | ${found} | ${version} |`);
    }
    out.push('');
  }

  if (start.ok) {
    out.push(`## ${l10n.t('Capabilities')}`, '', `| ${l10n.t('Feature')} | ${l10n.t('Supported')} | ${l10n.t('What it means')} |`, '| --- | --- | --- |');
    for (const row of start.capabilities)
      out.push(`| ${text(row.feature)} | ${row.supported ? `✅ ${l10n.t('yes')}` : `— ${l10n.t('no')}`} | ${text(row.meaning)} |`);
    out.push('', `## ${l10n.t('Sign-in methods')}`, '');
    if (start.authMethods.length === 0)
      out.push(l10n.t('None announced: the agent needs no sign-in through the editor (it may still read an API key from the environment).'));
    for (const m of start.authMethods) out.push(`- ${text(m.name)} (${code(m.id)})${m.description ? `: ${text(m.description)}` : ''}`);
    out.push('');
  }
  if (report.editorTools) out.push(...editorToolsLines(report.editorTools));

  if (report.stderr.trim()) out.push(`## ${start.ok ? l10n.t('Agent stderr') : l10n.t('Agent stderr (last lines)')}`, '', fence(report.stderr), '');
  else if (!start.ok && start.stage !== 'not_found' && !report.remote)
    out.push(`## ${l10n.t('Agent stderr')}`, '', l10n.t('The agent wrote nothing to stderr.'), '');

  if (report.conformance) {
    out.push(`## ${l10n.t('Protocol conformance')}`, '', ...conformanceLines(report.conformance.handshake, l10n.t('This check’s handshake')), '');
    if (report.conformance.live)
      out.push(...conformanceLines(report.conformance.live, l10n.t('Conversations with {0} in this window', text(report.agentName))), '');
    out.push(
      l10n.t(
        'Each warning is shown on its message in `{0}`. Warnings never change what Tandem does: it stays tolerant.',
        l10n.t('Tandem: Open Protocol Inspector'),
      ),
      '',
    );
  }

  const steps = nextSteps(report);
  out.push(`## ${l10n.t('What to do next')}`, '');
  if (steps.length === 0) out.push(l10n.t('Nothing: the agent is ready. Pick it with `{0}`.', l10n.t('Tandem: Select Agent')));
  steps.forEach((step, i) => out.push(`${i + 1}. ${step}`));
  out.push('');
  return out.join('\n');
}
