import { describe, expect, it } from 'vitest';
import { groupFailures, isSimilar, significantWords, wordOverlap } from '../../../../domain/learning/similarity.js';

describe('significantWords', () => {
  it('lowercases, splits on non-alphanumerics and drops stop-words and empty strings', () => {
    expect([...significantWords('The cache_key is IGNORED, by the Fetcher!')]).toEqual([
      'cache',
      'key',
      'ignored',
      'fetcher',
    ]);
  });
});

describe('wordOverlap', () => {
  it('divides the shared words by the smaller word set', () => {
    // A = {import, error, calc, mul}, B = {import, error, calc, div, module, missing}: 3 shared / 4.
    expect(wordOverlap('import error in calc.mul', 'import error: calc div module missing')).toBe(0.75);
  });

  it('ignores stop-words and repeated words', () => {
    expect(wordOverlap('the parser and the lexer', 'parser parser of lexer')).toBe(1);
  });

  it('is 0 when either text has no words', () => {
    expect(wordOverlap('', 'anything')).toBe(0);
    expect(wordOverlap('the of and', 'the of and')).toBe(0);
  });
});

describe('isSimilar', () => {
  it('counts an overlap of exactly the threshold as similar', () => {
    // {alpha, beta} vs {alpha, gamma}: 1 / 2 = 0.5.
    expect(isSimilar('alpha beta', 'alpha gamma')).toBe(true);
    expect(isSimilar('alpha beta gamma', 'alpha delta epsilon')).toBe(false);
    expect(isSimilar('alpha beta gamma', 'alpha delta epsilon', 0.3)).toBe(true);
  });
});

describe('groupFailures', () => {
  const failure = (id: string, description: string, workflowId = `wf-${id}`) => ({ id, description, workflowId });

  it('groups similar failures greedily in buffer order and keeps groups of at least minCount', () => {
    const buffer = [
      failure('1', 'cannot import name mul from calc'),
      failure('2', 'TypeError add takes 2 positional arguments'),
      failure('3', 'cannot import name div from calc'),
      failure('4', 'ZeroDivisionError in ratio'),
      failure('5', 'add takes 3 positional arguments but 4 given', 'wf-2'),
    ];
    const groups = groupFailures(buffer);
    expect(groups.map((g) => g.failures.map((f) => f.id))).toEqual([
      ['1', '3'],
      ['2', '5'],
    ]);
    expect(groups[0]!.description).toBe('cannot import name mul from calc');
    // Provenance lists each workflow once.
    expect(groups[1]!.workflowIds).toEqual(['wf-2']);
  });

  it('puts each failure in at most one group', () => {
    const buffer = [failure('1', 'alpha beta'), failure('2', 'alpha gamma'), failure('3', 'gamma alpha')];
    const groups = groupFailures(buffer);
    expect(groups).toHaveLength(1);
    expect(groups[0]!.failures.map((f) => f.id)).toEqual(['1', '2', '3']);
  });

  it('lets members of a group that stayed too small join a later group', () => {
    // Seed 1 gathers only 2 (below minCount 3); 2, 3 and 4 then form a group of their own.
    const buffer = [
      failure('1', 'alpha beta'),
      failure('2', 'beta gamma delta'),
      failure('3', 'gamma delta'),
      failure('4', 'delta gamma zeta'),
    ];
    expect(groupFailures(buffer, 0.5, 3).map((g) => g.failures.map((f) => f.id))).toEqual([['2', '3', '4']]);
  });

  it('returns nothing below minCount', () => {
    expect(groupFailures([failure('1', 'alpha'), failure('2', 'beta')])).toEqual([]);
  });
});
