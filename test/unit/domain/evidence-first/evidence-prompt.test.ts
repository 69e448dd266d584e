import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { evidenceSections } from '../../../../domain/evidence-first/evidence-prompt.js';
import { readFailureEvidence } from '../../../../domain/evidence-first/failure-evidence.js';
import { localise } from '../../../../domain/evidence-first/localise.js';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../fixtures/small-coder/${name}`, import.meta.url), 'utf8');
const listing = fixture('tomli-files.txt').split('\n').filter(Boolean);
const isRepoFile = (file: string) => listing.includes(file);

const goal = 'tomli.load() on a file opened in text mode fails with a confusing AttributeError.';
function sections() {
  const evidence = readFailureEvidence({ output: fixture('tomli-load-text-mode/pytest.out'), isRepoFile });
  const files = new Map([
    ['src/tomli/_parser.py', fixture('tomli-load-text-mode/_parser.py')],
    ['tests/test_misc.py', fixture('tomli-load-text-mode/test_misc.py')],
  ]);
  const localisation = localise({ evidence, goalTexts: [goal], files, maxChars: 8_000 });
  const run = {
    command: ['python3', '-m', 'pytest'],
    outcome: 'failed' as const,
    counts: { total: 13, passed: 12, failed: 1, errors: 0, skipped: 0 },
  };
  return evidenceSections({ goal, run, evidence, localisation, files: listing });
}

describe('evidenceSections (tomli, recorded)', () => {
  it('opens with the evidence, then the goal, the code and the modules; no file list of fixtures', () => {
    const texts = sections().map((section) => section.text);
    expect(texts.map((text) => text.split('\n')[0])).toEqual([
      '# Test evidence',
      '# Goal',
      '# Code (numbered as read_file shows it; the numbers and the tab after them are not part of the file)',
      '# Python modules',
    ]);
    expect(texts[0]).toContain('- tests/test_misc.py::TestMiscellaneous::test_incorrect_load');
    expect(texts[0]).toContain("E       AttributeError: 'str' object has no attribute 'decode'");
    expect(texts[0]).toContain('- src/tomli/_parser.py:77');
    const whole = texts.join('\n\n');
    expect(whole).not.toContain('.toml\n');
    // The repository tour was 22,004 of 22,755 characters of this instance's first message; this whole opening is smaller.
    expect(whole.length).toBeLessThan(6_000);
  });

  it('is the same text every time for the same inputs (a stable prefix for the server cache)', () => {
    expect(sections()).toEqual(sections());
    expect(
      sections()
        .map((s) => s.text)
        .join(''),
    ).not.toMatch(/\d+\.\d+s\b/);
  });

  it('says so when the tests pass at the base, and when they could not run', () => {
    const none = { failing: [], assertions: [], frames: [] };
    const empty = { snippets: [], omitted: [] };
    const passed = evidenceSections({
      goal,
      run: {
        command: ['pytest'],
        outcome: 'passed',
        counts: { total: 3, passed: 3, failed: 0, errors: 0, skipped: 0 },
      },
      evidence: none,
      localisation: empty,
      files: [],
    });
    expect(passed[0]?.text).toContain('No test fails yet');
    const notRun = evidenceSections({
      goal,
      run: { command: ['pytest'], outcome: 'not run', reason: 'this run has no test command' },
      evidence: none,
      localisation: empty,
      files: [],
    });
    expect(notRun[0]?.text).toContain('The tests were not run before your first turn: this run has no test command.');
    expect(notRun).toHaveLength(2);
  });
});
