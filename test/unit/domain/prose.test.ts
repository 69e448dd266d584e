import { describe, expect, it } from 'vitest';
import { extractProse, hasPhrase } from '../../../domain/prose.js';

describe('extractProse', () => {
  it('lower-cases prose and replaces code with a gap', () => {
    expect(extractProse('Tests failed: tests/test_a.py::test_b, see `x.y`')).toBe('tests failed § see §');
  });

  it('keeps apostrophes in prose but drops single-quoted code', () => {
    expect(extractProse("the model's patch didn't apply to 'src'")).toBe("the model patch didn't apply to §");
  });

  it('drops everything after assert and whole pytest E and > lines', () => {
    expect(extractProse('AssertionError: assert context == 3\nE   model\n>   model.save()\nthen it stopped')).toBe(
      '§ § § § then it stopped',
    );
  });

  it('splits hyphenated prose and keeps the listed tokens as words', () => {
    expect(extractProse('context-window full; budget_exhausted', new Set(['budget_exhausted']))).toBe(
      'context window full budget exhausted',
    );
  });
});

describe('hasPhrase', () => {
  it('matches whole words only, with an optional plural for one word', () => {
    expect(hasPhrase('two timeouts seen', 'timeout')).toBe(true);
    expect(hasPhrase('timeoutx', 'timeout')).toBe(false);
    expect(hasPhrase('it timed out', 'timed out')).toBe(true);
    expect(hasPhrase('it timed § out', 'timed out')).toBe(false);
  });
});
