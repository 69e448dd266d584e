// The report's picture: an SVG bar chart of each arm's resolved rate by each attempt the suite allowed (cumulative),
// so the lift of retries and the gap between arms show at a glance; under it, each pair of arms' difference with its
// interval, the figure promotion is decided on. Plain SVG text: no library, opens in any browser.
import type { ArmSummary, Comparison } from './report.js';

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const COLORS = ['#4c78a8', '#72b7b2', '#54a24b'];
const BAR = 28;
const GAP = 6;
const GROUP_GAP = 36;
const PLOT_HEIGHT = 220;
const LEFT = 50;
const TOP = 40;
/** Roughly the width of one character at the labels' 10 px (sans-serif averages about 0.6 em). */
const CHAR_WIDTH = 6;
const LINE_CHARS = 32;
const ROW = 22;
const INTERVAL_WIDTH = 240;

export interface ChartOptions {
  /** Attempts the suite allowed (1 + maxRetries): that many bars per arm; 3 (the loop's cap) when unknown. */
  maxAttempts?: number;
  /** The pairs of arms compared, each drawn as its difference and interval. */
  comparisons?: readonly Comparison[];
}

const percent = (rate: number) => `${rate >= 0 ? '+' : '−'}${Math.abs(rate * 100).toFixed(0)}%`;
const clip = (text: string) => (text.length <= LINE_CHARS ? text : `${text.slice(0, LINE_CHARS - 1)}…`);

/** An arm's label on at most two lines, broken at spaces (`model learning=on`: the part that tells arms apart stays). */
function labelLines(label: string): string[] {
  const lines: string[] = [];
  for (const word of label.split(' ')) {
    const last = lines.at(-1);
    if (last !== undefined && `${last} ${word}`.length <= LINE_CHARS) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  const kept = lines.slice(0, 2).map(clip);
  if (lines.length > 2) kept[1] = clip(`${kept[1]} ${lines.slice(2).join(' ')}`);
  return kept;
}

export function renderResolvedChart(title: string, arms: readonly ArmSummary[], options: ChartOptions = {}): string {
  const attempts = Math.max(1, Math.min(options.maxAttempts ?? 3, COLORS.length));
  const comparisons = options.comparisons ?? [];
  const barsWidth = attempts * BAR + (attempts - 1) * GAP;
  // Each arm's slot is as wide as its widest label, so two arms' labels never run into each other.
  const slotOf = (arm: ArmSummary) =>
    Math.max(
      barsWidth + GROUP_GAP,
      ...labelLines(arm.arm.label).map((line) => line.length * CHAR_WIDTH + 16),
      arm.arm.id.length * 8 + 16,
    );
  const slots = arms.map(slotOf);
  const plotWidth = slots.reduce((sum, slot) => sum + slot, 0);
  const intervalTop = TOP + PLOT_HEIGHT + 115;
  const intervalsHeight = comparisons.length > 0 ? 30 + comparisons.length * ROW : 0;
  const width = Math.max(420, LEFT + 10 + plotWidth + 20, LEFT + INTERVAL_WIDTH + 260);
  const height = intervalTop + intervalsHeight + 10;
  const y = (rate: number) => TOP + PLOT_HEIGHT * (1 - rate);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${LEFT}" y="20" font-size="14" font-weight="bold">${escape(title)}</text>`,
  ];
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(
      `<line x1="${LEFT}" x2="${width - 10}" y1="${y(tick)}" y2="${y(tick)}" stroke="#ddd"/>`,
      `<text x="${LEFT - 6}" y="${y(tick) + 4}" text-anchor="end">${Math.round(tick * 100)}%</text>`,
    );
  }
  let slotStart = LEFT + 10;
  arms.forEach((arm, index) => {
    const slot = slots[index] ?? 0;
    const center = slotStart + slot / 2;
    const x0 = center - barsWidth / 2;
    arm.resolvedByAttempt.slice(0, attempts).forEach((rate, attempt) => {
      const x = x0 + attempt * (BAR + GAP);
      const label = `${arm.arm.id} by attempt ${attempt + 1}: ${(rate * 100).toFixed(1)}%`;
      parts.push(
        `<rect x="${x}" y="${y(rate)}" width="${BAR}" height="${PLOT_HEIGHT * rate}" fill="${COLORS[attempt]}"><title>${escape(label)}</title></rect>`,
        `<text x="${x + BAR / 2}" y="${y(rate) - 4}" text-anchor="middle" font-size="10">${Math.round(rate * 100)}</text>`,
      );
    });
    parts.push(
      `<text x="${center}" y="${TOP + PLOT_HEIGHT + 16}" text-anchor="middle" font-weight="bold">${escape(arm.arm.id)}</text>`,
      ...labelLines(arm.arm.label).map(
        (line, i) =>
          `<text x="${center}" y="${TOP + PLOT_HEIGHT + 30 + i * 12}" text-anchor="middle" font-size="10">${escape(line)}</text>`,
      ),
    );
    slotStart += slot;
  });
  const legendY = TOP + PLOT_HEIGHT + 60;
  ['attempt 1', 'by attempt 2', 'by attempt 3'].slice(0, attempts).forEach((name, i) => {
    const x = LEFT + i * 110;
    parts.push(
      `<rect x="${x}" y="${legendY}" width="12" height="12" fill="${COLORS[i]}"/>`,
      `<text x="${x + 16}" y="${legendY + 10}">${name}</text>`,
    );
  });
  parts.push(
    `<text x="${LEFT}" y="${legendY + 28}" font-size="10">resolved rate per arm (verified FAIL_TO_PASS and PASS_TO_PASS)</text>`,
  );
  if (comparisons.length > 0) parts.push(...intervalRows(comparisons, intervalTop));
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

/** Each comparison on a −100 %…+100 % axis: its difference as a dot, its interval as a bar with caps, in words beside. */
function intervalRows(comparisons: readonly Comparison[], top: number): string[] {
  const x = (difference: number) => LEFT + (INTERVAL_WIDTH * (difference + 1)) / 2;
  const bottom = top + 14 + comparisons.length * ROW;
  const level = Math.round((comparisons[0]?.interval.level ?? 0.95) * 100);
  const parts = [
    `<text x="${LEFT}" y="${top}" font-weight="bold">difference in resolved rate, with its ${level}% interval</text>`,
    `<line x1="${x(0)}" x2="${x(0)}" y1="${top + 8}" y2="${bottom}" stroke="#999" stroke-dasharray="3,3"/>`,
    `<text x="${x(-1)}" y="${bottom + 10}" font-size="10" text-anchor="middle">−100%</text>`,
    `<text x="${x(0)}" y="${bottom + 10}" font-size="10" text-anchor="middle">0</text>`,
    `<text x="${x(1)}" y="${bottom + 10}" font-size="10" text-anchor="middle">+100%</text>`,
  ];
  comparisons.forEach((comparison, index) => {
    const rowY = top + 20 + index * ROW;
    const { low, high } = comparison.interval;
    const words = `${comparison.a} − ${comparison.b}: ${percent(comparison.difference)} (${percent(low)} to ${percent(high)}, ${comparison.shared} shared)`;
    parts.push(
      `<line x1="${x(low)}" x2="${x(high)}" y1="${rowY}" y2="${rowY}" stroke="#333" stroke-width="2"><title>${escape(words)}</title></line>`,
      `<line x1="${x(low)}" x2="${x(low)}" y1="${rowY - 5}" y2="${rowY + 5}" stroke="#333"/>`,
      `<line x1="${x(high)}" x2="${x(high)}" y1="${rowY - 5}" y2="${rowY + 5}" stroke="#333"/>`,
      `<circle cx="${x(comparison.difference)}" cy="${rowY}" r="4" fill="#e45756"/>`,
      `<text x="${x(1) + 14}" y="${rowY + 4}" font-size="11">${escape(words)}</text>`,
    );
  });
  return parts;
}
