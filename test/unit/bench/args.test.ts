import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from '../../../bench/lib/args.js';
import { atMost, formatFigures, ms } from '../../../bench/lib/figures.js';

const known = ['overhead', 'events', 'cli'];

describe('parseBenchArgs', () => {
  it('leaves runs to each benchmark when --runs is absent', () => {
    expect(parseBenchArgs([], known)).toEqual({ success: true, data: {} });
  });

  it('takes --runs N and a comma-separated --only list', () => {
    expect(parseBenchArgs(['--runs', '3', '--only=events,cli'], known)).toEqual({
      success: true,
      data: { runs: 3, only: ['events', 'cli'] },
    });
  });

  it('names an unknown benchmark and the choices', () => {
    const parsed = parseBenchArgs(['--only', 'events,nope'], known);
    expect(parsed).toEqual({ success: false, error: expect.stringContaining('"nope" is not a benchmark') });
    expect(parsed.success ? '' : parsed.error).toContain('overhead, events, cli');
  });
});

describe('figures', () => {
  it('marks a figure over its target as missed in the table docs/benchmarks.md takes', () => {
    const table = formatFigures([
      { bench: 'cli', figure: atMost('start-up', 1800, 300, ms), load: '2.00' },
      { bench: 'cli', figure: atMost('start-up', 250, 300, ms), load: '2.00' },
    ]);
    expect(table).toMatch(/1,800 ms \| <= 300 ms \| \*\*no\*\*/);
    expect(table).toMatch(/250 ms \| <= 300 ms \| yes/);
  });
});
