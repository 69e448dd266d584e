import { describe, expect, it } from 'vitest';
import { parseSuite } from '../../../../domain/eval/parse-suite.js';
import { selectByTags } from '../../../../domain/eval/select-tags.js';
import type { Suite } from '../../../../domain/eval/suite.js';

const instance = (id: string, tags?: string[]) => ({
  id,
  repo: './repo',
  baseRef: 'main',
  goal: 'g',
  failToPass: ['tests/test_x.py::test_a'],
  passToPass: [],
  ...(tags ? { tags } : {}),
});

const suiteOf = (input: unknown): Suite => {
  const result = parseSuite(input);
  if (!result.success) throw new Error(result.issues.map((issue) => issue.message).join('\n'));
  return result.data;
};

const suite = suiteOf({
  name: 'tiers',
  instances: [instance('a', ['one-line']), instance('b'), instance('c', ['slow', 'one-line']), instance('d', ['slow'])],
});

describe('selectByTags', () => {
  it('keeps, in the suite order, the instances that carry any of the tags', () => {
    const one = selectByTags(suite, ['one-line']);
    expect(one.success && one.data.instances.map((i) => i.id)).toEqual(['a', 'c']);
    const either = selectByTags(suite, ['slow', 'one-line']);
    expect(either.success && either.data.instances.map((i) => i.id)).toEqual(['a', 'c', 'd']);
  });

  it('keeps the whole suite when no tag is given', () => {
    const all = selectByTags(suite, []);
    expect(all.success && all.data.instances.map((i) => i.id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('names the tags given and those the suite has when none matches', () => {
    expect(selectByTags(suite, ['oneline'])).toEqual({
      success: false,
      error:
        "no instance of suite tiers has the tags oneline; its instances' tags: one-line, slow (fix: pass one of those, or add tags: [...] to its instances)",
    });
  });
});

describe('the tags field of a suite instance', () => {
  it('refuses a tag that is no label, naming the field, the value and the fix', () => {
    const result = parseSuite({ name: 'tiers', instances: [instance('a', ['one line'])] });
    expect(result.success).toBe(false);
    if (!result.success)
      expect(result.issues.map((issue) => `${issue.field}: ${issue.message}`).join('\n')).toMatch(
        /instances\[0\]\.tags\[0\]: .*"one line".*one-line/,
      );
  });
});
