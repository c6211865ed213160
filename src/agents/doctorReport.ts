import type { DoctorReport } from './agentDiagnosis';

/**
 * The doctor's findings as a markdown document the user can read, copy into an issue, or keep:
 * what was run, what was found, what the agent says it can do, and what to do next. Everything
 * that came from the agent or the settings is escaped, so it renders as text, never as markup.
 */

/** What to do next, most useful first. Empty when there is nothing to do. */
export function nextSteps(report: DoctorReport): string[] {
  const steps: string[] = [];
  const missing = report.runtimes.filter((r) => r.required && !r.path);
  for (const runtime of missing) steps.push(`${runtime.name} is missing. ${runtime.hint}`);
  const { start } = report;
  if (!start.ok) {
    switch (start.stage) {
      case 'not_found':
        if (missing.length === 0) {
          steps.push(`Install ${report.agentName}, or run \`Tandem: Install Agent…\` to install it from the ACP registry.`);
          steps.push('If it is installed, put its folder on PATH or set an absolute `command` in `tandem.agents`. VS Code started from a dock or start menu may not see the PATH of your shell: restart it from a terminal.');
        }
        break;
      case 'spawn':
        if (start.osCode === 'EACCES') steps.push(`The file is not executable: run \`chmod +x ${report.resolvedCommand ?? report.commandLine.split(' ')[0]}\`.`);
        else steps.push('The operating system refused to start the command: check that it is a program for this machine (not a folder or a file for another platform).');
        break;
      case 'exited':
        steps.push('Read the agent’s stderr below: it usually says why it stopped (a missing login or API key, an unknown option).');
        steps.push('Check the `args` in `tandem.agents`: many agents need a flag to speak ACP (`--acp`, `acp`, `--experimental-acp`).');
        break;
      case 'timeout':
        steps.push('The agent started but did not answer. A first `npx -y` or `uvx` run downloads the agent and can take minutes: run the command in a terminal once, then check again.');
        steps.push('If it prints a prompt or help text there, it is not in ACP mode: check the `args` in `tandem.agents`.');
        break;
      case 'error':
        steps.push('The agent refused the handshake. Update it; if that does not help, report the error above to its authors.');
        break;
      case 'cancelled':
        steps.push('Run `Tandem: Check Agent` again to finish the check.');
        break;
    }
    if (/auth|log ?in|api[ _-]?key|unauthori[sz]ed|credential/i.test(report.stderr)) steps.push('The stderr mentions authentication: sign in with the agent’s own CLI or set its API key in your shell environment.');
    return steps;
  }
  if (start.protocolVersion !== report.expectedProtocolVersion) {
    steps.push(`The agent speaks ACP version ${start.protocolVersion}; Tandem speaks ${report.expectedProtocolVersion}. Update the agent (or Tandem) so both speak the same version.`);
  }
  if (start.authMethods.length > 0) steps.push('The agent announces sign-in methods: if a conversation says it needs authentication, sign in with one of them.');
  return steps;
}

export function renderDoctorReport(report: DoctorReport): string {
  const out: string[] = [];
  out.push(`# Agent check: ${text(report.agentName)}`, '', `Checked ${report.checkedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}.`, '');
  out.push('| | |', '| --- | --- |');
  out.push(`| Command | ${code(report.commandLine)} |`);
  out.push(`| Found at | ${report.resolvedCommand ? code(report.resolvedCommand) : '**not found on PATH**'} |`);
  out.push(`| Working folder | ${code(report.cwd)} |`);
  out.push(`| Environment | ${report.envNames.length ? `${report.envNames.map(code).join(', ')} (values hidden)` : 'nothing extra'} |`, '');

  out.push('## Result', '');
  const { start } = report;
  if (start.ok) {
    const who = start.agentInfo ? ` — it calls itself ${text(start.agentInfo.title ?? start.agentInfo.name)}${start.agentInfo.version ? ` ${text(start.agentInfo.version)}` : ''}` : '';
    out.push(`✅ Started and answered \`initialize\` in ${(start.elapsedMs / 1000).toFixed(1)} s${who}.`, '');
    const same = start.protocolVersion === report.expectedProtocolVersion;
    out.push(`Protocol version: ${start.protocolVersion} ${same ? '(the same as Tandem’s)' : `⚠️ (Tandem speaks ${report.expectedProtocolVersion})`}.`, '');
  } else {
    out.push(`❌ ${text(start.message)}`, '');
  }

  if (report.runtimes.length > 0) {
    out.push('## Runtimes', '', '| Runtime | Needed | Found at | Version |', '| --- | --- | --- | --- |');
    for (const r of report.runtimes) {
      const found = r.path ? code(r.path) : `❌ ${text(r.problem ?? 'not found')}`;
      const version = r.version ? code(r.version) : r.path && r.problem ? `⚠️ ${text(r.problem)}` : '—';
      out.push(`| ${text(r.name)} | ${r.required ? 'yes' : 'optional'} | ${found} | ${version} |`);
    }
    out.push('');
  }

  if (start.ok) {
    out.push('## Capabilities', '', '| Feature | Supported | What it means |', '| --- | --- | --- |');
    for (const row of start.capabilities) out.push(`| ${text(row.feature)} | ${row.supported ? '✅ yes' : '— no'} | ${text(row.meaning)} |`);
    out.push('', '## Sign-in methods', '');
    if (start.authMethods.length === 0) out.push('None announced: the agent needs no sign-in through the editor (it may still read an API key from the environment).');
    for (const m of start.authMethods) out.push(`- ${text(m.name)} (${code(m.id)})${m.description ? `: ${text(m.description)}` : ''}`);
    out.push('');
  }

  if (report.stderr.trim()) out.push(start.ok ? '## Agent stderr' : '## Agent stderr (last lines)', '', fence(report.stderr), '');
  else if (!start.ok && start.stage !== 'not_found') out.push('## Agent stderr', '', 'The agent wrote nothing to stderr.', '');

  const steps = nextSteps(report);
  out.push('## What to do next', '');
  if (steps.length === 0) out.push('Nothing: the agent is ready. Pick it with `Tandem: Select Agent`.');
  steps.forEach((step, i) => out.push(`${i + 1}. ${step}`));
  out.push('');
  return out.join('\n');
}

/** Plain text in a table cell or a paragraph: no markup, no line breaks, no HTML. */
function text(value: string): string {
  return value
    .replace(/\r?\n/g, ' ')
    // Only what can start markup mid-line: `(` needs no escape once `[` has one, `#` only at a line start.
    .replace(/[\\`*_[\]|<>~]/g, '\\$&')
    .trim();
}

/** Inline code that survives backticks and pipes in the value. */
function code(value: string): string {
  const flat = value.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((m) => m.length));
  const ticks = '`'.repeat(longest + 1);
  return longest > 0 ? `${ticks} ${flat} ${ticks}` : `${ticks}${flat}${ticks}`;
}

/** A fenced block longer than any backtick run inside it, so the content cannot close it. */
function fence(value: string): string {
  const longest = Math.max(2, ...(value.match(/`+/g) ?? []).map((m) => m.length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}text\n${value.replace(/\s+$/, '')}\n${ticks}`;
}
