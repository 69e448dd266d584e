import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { longFunctions, longFunctionsIn } from '../../../scripts/long-functions.js';

describe('the 80-line rule', () => {
  it('no product function is longer than 80 lines (npx tsx scripts/long-functions.ts 80)', () => {
    const found = longFunctions(80).map((entry) => `${entry.file}:${entry.line} ${entry.name} (${entry.lines} lines)`);
    expect(found, `split these into named steps:\n${found.join('\n')}`).toEqual([]);
  });

  it('finds a function one line over the limit, and not one at it', () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'taskloop-long-'));
    try {
      const file = path.join(folder, 'probe.ts');
      const body = (lines: number) => Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i};`).join('\n');
      writeFileSync(file, `export function atLimit() {\n${body(80)}\n}\nexport function over() {\n${body(81)}\n}\n`);
      expect(longFunctionsIn(file, 80).map((entry) => [entry.name, entry.lines])).toEqual([['over', 81]]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
