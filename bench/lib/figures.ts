// Turning measurements into figures beside their targets, and the markdown table docs/benchmarks.md takes.
import os from 'node:os';
import type { Figure } from './types.js';
import { formatTable } from './table.js';

/** A figure with an upper-bound target: met when value <= limit. */
export function atMost(name: string, value: number, limit: number, format: (n: number) => string): Figure {
  return { name, value: format(value), target: `<= ${format(limit)}`, met: value <= limit };
}

/** A reference figure (no target of its own), printed for context. */
export const reference = (name: string, value: string): Figure => ({ name, value, target: '' });

export const ms = (n: number) => `${Math.round(n).toLocaleString('en-US')} ms`;
export const plusMs = (n: number) => `${n >= 0 ? '+' : ''}${Math.round(n).toLocaleString('en-US')} ms`;
export const times = (n: number) => `${n.toFixed(2)}x`;
export const count = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
export const seconds = (n: number) => `${(n / 1000).toFixed(2)} s`;
export const megabytes = (n: number) => `${Math.round(n)} MB`;

/** "1.52 / 2.10 / 3.04 (1, 5, 15 min; 2 cores)" */
export function loadAverage(): string {
  const [one, five, fifteen] = os.loadavg().map((value) => value.toFixed(2));
  return `${one} / ${five} / ${fifteen} (1, 5, 15 min; ${os.cpus().length} cores)`;
}

/** The table of docs/benchmarks.md: one row per figure, the benchmark it came from, its target and whether it is met. */
export function formatFigures(rows: { bench: string; figure: Figure; load: string }[]): string {
  const verdict = (figure: Figure) => (figure.met === undefined ? '' : figure.met ? 'yes' : '**no**');
  return formatTable(
    ['bench', 'figure', 'measured', 'target', 'met', 'load during'],
    rows.map(({ bench, figure, load }) => [bench, figure.name, figure.value, figure.target, verdict(figure), load]),
    [2],
  );
}
