// The README is a manual: measured figures live on the pages that explain them (benchmarks, eval results, models),
// and a figure the README states is one of theirs, word for word, so the two can never disagree. What to do first
// is on its first screen.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../platform/paths.js';

const figurePages = ['docs/benchmarks.md', 'docs/eval-results.md', 'docs/models.md'];

/**
 * What reads as a measurement in a text: a quantity with a unit, a count out of a total, a ratio, a percentage,
 * and what belongs to a dated run (a date, a commit hash, a load average), each as written.
 */
export function statedFigures(text: string): string[] {
  const patterns = [
    /\b\d[\d,.]*\s?(?:ms|s|min|h|MB|GB|KB|tokens|calls|requests|x)(?![\w-])/g,
    /\b\d[\d,.]*\s?%/g,
    /\b\d+ (?:of|in|out of) \d[\d,]*\b/g,
    /\b\d+\/\d+\b/g,
    /\b\d{4}-\d{2}-\d{2}\b/g,
    /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b/g,
    /load average[^;)\n]*/gi,
  ];
  // Addresses and paths hold digits that are no figures (http://localhost:8233, Node.js 20+).
  const prose = text.replace(/https?:\/\/\S+/g, '');
  return patterns.flatMap((pattern) => [...prose.matchAll(pattern)].map((match) => match[0].trim()));
}

const read = (file: string) => readFile(path.join(projectRoot, file), 'utf8');

describe("the README's figures", () => {
  it('finds the figures of a lab notebook', () => {
    const notebook =
      'at 6605dfb (2026-12-06 02:01; load average 4.57 / 4.64 at the start): 3 of 5 in 6.3 min, 1/5 resolved, 88 % well formed, 1.97x';
    expect(statedFigures(notebook)).toEqual([
      '6.3 min',
      '1.97x',
      '88 %',
      '3 of 5',
      '1/5',
      '2026-12-06',
      '6605dfb',
      'load average 4.57 / 4.64 at the start',
    ]);
    expect(
      statedFigures('Web UI at http://localhost:8233; Node.js 20+, Python 3; five tasks; `taskloop/<id>`'),
    ).toEqual([]);
  });

  it('states only figures that its pages state, word for word', async () => {
    const readme = await read('README.md');
    const pages = (await Promise.all(figurePages.map(read))).join('\n');
    const foreign = statedFigures(readme).filter((figure) => !pages.includes(figure));
    expect(foreign).toEqual([]);
  });

  it('names no load average, commit or dated run', async () => {
    const figures = statedFigures(await read('README.md'));
    expect(figures.filter((figure) => /load average|^\d{4}-\d{2}|^[0-9a-f]{7,40}$/.test(figure))).toEqual([]);
  });

  it('says what to do first within its first screen', async () => {
    const firstScreen = (await read('README.md')).split('\n').slice(0, 40).join('\n');
    for (const step of ['npm run demo', 'npm test', '#a-first-task', 'taskloop show', 'taskloop server stop'])
      expect(firstScreen).toContain(step);
  });
});
