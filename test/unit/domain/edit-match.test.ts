import { describe, expect, it } from 'vitest';
import { matchEdit, occurrenceWithin, SIMILAR_BLOCK_THRESHOLD } from '../../../domain/edit-match.js';

const file = 'def a():\n    return 1\n\ndef b():\n    x = compute(1, 2)\n    return x\n';
const apply = (text: string, old: string, replacement: string) => {
  const match = matchEdit(text, old, replacement);
  return 'start' in match ? text.slice(0, match.start) + match.replacement + text.slice(match.end) : match.kind;
};

describe('matchEdit', () => {
  it('takes an exact unique match first, and refuses several', () => {
    expect(matchEdit(file, 'return x', 'return -x')).toMatchObject({ kind: 'exact', line: 6 });
    expect(matchEdit('x = 1\nx = 1\n', 'x = 1', 'x = 2')).toEqual({ kind: 'ambiguous', lines: [1, 2] });
  });

  it('matches ignoring whitespace, line by line, and keeps the file indentation', () => {
    expect(apply(file, 'def b():\n  x = compute(1,  2)\n  return x\n', 'def b():\n  return 3\n')).toBe(
      'def a():\n    return 1\n\ndef b():\n    return 3\n',
    );
  });

  it('takes the one block above the similarity threshold, and nothing below it', () => {
    expect(matchEdit(file, '    x = compute(1, 3)\n    return x', 'y')).toMatchObject({ kind: 'similar', line: 5 });
    expect(matchEdit(file, 'class Cache:\n    pass', 'y')).toEqual({ kind: 'none' });
    expect(SIMILAR_BLOCK_THRESHOLD).toBeGreaterThanOrEqual(0.8);
  });

  it('refuses a similar block that is not clearly the one meant', () => {
    const twins = 'def f():\n    return compute(1)\n\ndef g():\n    return compute(2)\n';
    expect(matchEdit(twins, '    return compute(3)', 'x')).toMatchObject({ kind: 'ambiguous' });
  });
});

describe('occurrenceWithin: an old that recurs, in the code the model was shown', () => {
  const text = [
    'def insert(i):',
    '    j = fix(i)',
    '    return j',
    '',
    'def pop(i):',
    '    j = fix(i)',
    '    return j',
    '',
  ].join('\n');
  const insert = { start: 1, end: 3, name: 'insert' };

  it('finds the one occurrence inside the shown lines, with every line old occurs at', () => {
    const found = occurrenceWithin(text, 'j = fix(i)', [insert]);
    expect(found).toMatchObject({ line: 2, within: insert, lines: [2, 6] });
    expect(text.slice(found!.start, found!.end)).toBe('j = fix(i)');
    expect(found!.start).toBe(text.indexOf('j = fix(i)'));
  });

  it('counts an occurrence only when all of its lines are shown', () => {
    expect(occurrenceWithin(text, '    j = fix(i)\n    return j\n\ndef pop', [insert])).toBeUndefined();
    expect(occurrenceWithin(text, 'j = fix(i)\n    return j', [insert])).toMatchObject({ line: 2, lines: [2, 6] });
  });

  it('finds nothing when both places are shown, neither is, or old occurs once', () => {
    expect(occurrenceWithin(text, 'j = fix(i)', [insert, { start: 5, end: 7, name: 'pop' }])).toBeUndefined();
    expect(occurrenceWithin(text, 'j = fix(i)', [{ start: 8, end: 8, name: 'x' }])).toBeUndefined();
    expect(occurrenceWithin(text, 'def pop(i):', [{ start: 5, end: 7, name: 'pop' }])).toBeUndefined();
  });
});
