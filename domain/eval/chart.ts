// The report's picture: an SVG bar chart of each arm's resolved rate by attempt 1, 2 and 3 (cumulative), so the
// lift of retries and the gap between arms show at a glance. Plain SVG text: no library, opens in any browser.
import type { ArmSummary } from './report.js';

const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const COLORS = ['#4c78a8', '#72b7b2', '#54a24b'];
const BAR = 28;
const GAP = 6;
const GROUP_GAP = 36;
const PLOT_HEIGHT = 220;
const LEFT = 50;
const TOP = 40;

export function renderResolvedChart(title: string, arms: readonly ArmSummary[]): string {
  const groupWidth = 3 * BAR + 2 * GAP;
  const width = Math.max(360, LEFT + arms.length * (groupWidth + GROUP_GAP) + 20);
  const height = TOP + PLOT_HEIGHT + 90;
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
  arms.forEach((arm, index) => {
    const x0 = LEFT + 10 + index * (groupWidth + GROUP_GAP);
    arm.resolvedByAttempt.forEach((rate, attempt) => {
      const x = x0 + attempt * (BAR + GAP);
      const label = `${arm.arm.id} by attempt ${attempt + 1}: ${(rate * 100).toFixed(1)}%`;
      parts.push(
        `<rect x="${x}" y="${y(rate)}" width="${BAR}" height="${PLOT_HEIGHT * rate}" fill="${COLORS[attempt]}"><title>${escape(label)}</title></rect>`,
        `<text x="${x + BAR / 2}" y="${y(rate) - 4}" text-anchor="middle" font-size="10">${Math.round(rate * 100)}</text>`,
      );
    });
    parts.push(
      `<text x="${x0 + groupWidth / 2}" y="${TOP + PLOT_HEIGHT + 16}" text-anchor="middle" font-weight="bold">${escape(arm.arm.id)}</text>`,
      `<text x="${x0 + groupWidth / 2}" y="${TOP + PLOT_HEIGHT + 30}" text-anchor="middle" font-size="10">${escape(arm.arm.label.slice(0, 28))}</text>`,
    );
  });
  const legendY = TOP + PLOT_HEIGHT + 55;
  ['attempt 1', 'by attempt 2', 'by attempt 3'].forEach((name, i) => {
    const x = LEFT + i * 110;
    parts.push(
      `<rect x="${x}" y="${legendY}" width="12" height="12" fill="${COLORS[i]}"/>`,
      `<text x="${x + 16}" y="${legendY + 10}">${name}</text>`,
    );
  });
  parts.push(
    `<text x="${LEFT}" y="${legendY + 30}" font-size="10">resolved rate per arm (verified FAIL_TO_PASS and PASS_TO_PASS)</text>`,
  );
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
