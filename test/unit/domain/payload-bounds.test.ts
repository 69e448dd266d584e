import { describe, expect, it } from 'vitest';
import {
  boundFindings,
  boundPaths,
  MAX_FINDING_TEXT,
  MAX_FINDINGS,
  MAX_LISTED_PATHS,
} from '../../../domain/payload-bounds.js';
import type { Finding } from '../../../domain/records.js';

describe('payload bounds', () => {
  it('keeps the first paths of a list of 120,000, each cut, and counts the rest', () => {
    const paths = Array.from({ length: 120_000 }, (_, i) => `gen/${'d'.repeat(4000)}/${i}.txt`);
    const bounded = boundPaths(paths);
    expect(bounded.paths).toHaveLength(MAX_LISTED_PATHS);
    expect(bounded.omitted).toBe(120_000 - MAX_LISTED_PATHS);
    expect(JSON.stringify(bounded).length).toBeLessThan(300_000);
  });

  it('keeps the first findings, cuts their texts, and says how many of which rules were left out', () => {
    const findings: Finding[] = Array.from({ length: 120_000 }, (_, i) => ({
      rule: i % 2 === 0 ? 'path_not_allowed' : 'test_file_edited',
      message: `${'m'.repeat(5000)} ${i}`,
      file: `${'f'.repeat(5000)}${i}`,
    }));
    const bounded = boundFindings(findings);
    expect(bounded).toHaveLength(MAX_FINDINGS + 1);
    expect(bounded[0]?.message.length).toBeLessThan(MAX_FINDING_TEXT + 100);
    expect(bounded.at(-1)).toEqual({
      rule: 'path_not_allowed',
      message: `and ${120_000 - MAX_FINDINGS} more findings (path_not_allowed, test_file_edited): the whole change is in its diff.patch`,
    });
    expect(JSON.stringify(bounded).length).toBeLessThan(300_000);
  });

  it('leaves a short list as it is', () => {
    const one: Finding[] = [{ rule: 'empty_diff', message: 'the change is empty' }];
    expect(boundFindings(one)).toEqual(one);
    expect(boundPaths(['a.py'])).toEqual({ paths: ['a.py'], omitted: 0 });
  });
});
