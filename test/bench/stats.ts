/** Rows of the benchmark table: a sample set reduced to median / min / max and checked against a target. */

export interface Target {
  /** `max`: the median must not exceed `value`; `min`: it must reach it. */
  kind: 'max' | 'min';
  value: number;
}

export interface Row {
  name: string;
  median: number;
  min: number;
  max: number;
  unit: string;
  runs: number;
  target: string;
  pass: boolean;
  samples: number[];
  note?: string;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function row(name: string, samples: number[], unit: string, target: Target, note?: string): Row {
  if (samples.length === 0) throw new Error(`${name}: no samples`);
  const med = median(samples);
  return {
    name,
    median: round(med),
    min: round(Math.min(...samples)),
    max: round(Math.max(...samples)),
    unit,
    runs: samples.length,
    target: `${target.kind === 'max' ? '≤' : '≥'} ${target.value} ${unit}`,
    pass: target.kind === 'max' ? med <= target.value : med >= target.value,
    samples: samples.map(round),
    note,
  };
}

/** A row for a measurement that failed to run at all: shown, and counted as a miss. */
export function failedRow(name: string, unit: string, target: Target, error: unknown): Row {
  return {
    name,
    median: Number.NaN,
    min: Number.NaN,
    max: Number.NaN,
    unit,
    runs: 0,
    target: `${target.kind === 'max' ? '≤' : '≥'} ${target.value} ${unit}`,
    pass: false,
    samples: [],
    note: `did not run: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
  };
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

export function formatTable(rows: Row[]): string {
  const header = ['#', 'measurement', 'median', 'min', 'max', 'unit', 'runs', 'target', 'result'];
  const lines = rows.map((r, i) => [String(i + 1), r.name, fmt(r.median), fmt(r.min), fmt(r.max), r.unit, String(r.runs), r.target, r.pass ? 'PASS' : 'FAIL']);
  const widths = header.map((h, c) => Math.max(h.length, ...lines.map((l) => l[c].length)));
  const render = (cells: string[]): string => cells.map((cell, c) => (c >= 2 && c <= 4 ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join('  ');
  const out = [render(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(render)];
  const notes = rows.map((r, i) => (r.note ? `  [${i + 1}] ${r.note}` : '')).filter(Boolean);
  return [...out, ...(notes.length ? ['', 'Notes:', ...notes] : [])].join('\n');
}

function fmt(n: number): string {
  if (Number.isNaN(n)) return '—';
  return Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(2);
}

/** Wall-clock milliseconds with sub-ms precision, comparable between Node and Chromium on one machine. */
export function wallNow(): number {
  return performance.timeOrigin + performance.now();
}
