// Markdown tables with aligned columns, so the output reads well in a terminal and pastes into a README.

/** Renders a header and rows; columns listed in `rightAligned` (numbers) are padded on the left. */
export function formatTable(header: string[], rows: string[][], rightAligned: number[] = []): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const pad = (cell: string, column: number) =>
    rightAligned.includes(column) ? cell.padStart(widths[column] ?? 0) : cell.padEnd(widths[column] ?? 0);
  const line = (cells: string[]) => `| ${cells.map(pad).join(' | ')} |`;
  const rule = `|${widths.map((width, column) => (rightAligned.includes(column) ? `${'-'.repeat(width + 1)}:` : '-'.repeat(width + 2))).join('|')}|`;
  return [line(header), rule, ...rows.map((row) => line(header.map((_, column) => row[column] ?? '')))].join('\n');
}

/** Milliseconds with no decimals (sub-millisecond noise is meaningless here). */
export const formatMs = (ms: number) => Math.round(ms).toLocaleString('en-US');
