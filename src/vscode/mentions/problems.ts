import * as vscode from 'vscode';
import type { Problem, ProblemSeverity } from '../../context/mentions';

/** Most problems one mention carries (a broken build can report thousands). */
const MAX_PROBLEMS = 500;

function severityOf(severity: vscode.DiagnosticSeverity): ProblemSeverity {
  switch (severity) {
    case vscode.DiagnosticSeverity.Error:
      return 'error';
    case vscode.DiagnosticSeverity.Warning:
      return 'warning';
    case vscode.DiagnosticSeverity.Information:
      return 'information';
    default:
      return 'hint';
  }
}

const RANK: Record<ProblemSeverity, number> = { error: 0, warning: 1, information: 2, hint: 3 };

function toProblem(uri: vscode.Uri, d: vscode.Diagnostic): Problem {
  const problem: Problem = {
    file: uri.fsPath,
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    severity: severityOf(d.severity),
    message: d.message,
  };
  if (d.source) problem.source = d.source;
  const code = typeof d.code === 'object' ? d.code.value : d.code;
  if (code !== undefined) problem.code = code;
  return problem;
}

/**
 * The problems VS Code shows now (its Problems view), of one file or of the whole workspace:
 * errors first, then by file and line, hints left out of the workspace-wide list as noise.
 */
export function problemsOf(file: string | undefined): Problem[] {
  const entries: Array<[vscode.Uri, readonly vscode.Diagnostic[]]> =
    file === undefined ? vscode.languages.getDiagnostics() : [[vscode.Uri.file(file), vscode.languages.getDiagnostics(vscode.Uri.file(file))]];
  const problems: Problem[] = [];
  for (const [uri, diagnostics] of entries) {
    if (uri.scheme !== 'file') continue;
    for (const d of diagnostics) {
      if (file === undefined && d.severity === vscode.DiagnosticSeverity.Hint) continue;
      problems.push(toProblem(uri, d));
    }
  }
  problems.sort((a, b) => RANK[a.severity] - RANK[b.severity] || a.file.localeCompare(b.file) || a.line - b.line);
  return problems.slice(0, MAX_PROBLEMS);
}

/** Files with errors or warnings, for the picker's per-file Problems entries. */
export function problemFiles(): string[] {
  return vscode.languages
    .getDiagnostics()
    .filter(([uri, list]) => uri.scheme === 'file' && list.some((d) => d.severity <= vscode.DiagnosticSeverity.Warning))
    .map(([uri]) => uri.fsPath);
}
