import { describe, expect, it } from 'vitest';
import { STDERR_EXCERPT_CHARS, STDOUT_EXCERPT_CHARS, tailExcerpt } from '../../../domain/evidence.js';

describe('tailExcerpt', () => {
  it('keeps the design limits', () => {
    expect(STDOUT_EXCERPT_CHARS).toBe(12_000);
    expect(STDERR_EXCERPT_CHARS).toBe(4_000);
  });

  it('returns short text unchanged, including text exactly at the limit', () => {
    expect(tailExcerpt('abc', 10)).toBe('abc');
    expect(tailExcerpt('x'.repeat(100), 100)).toBe('x'.repeat(100));
  });

  it('keeps the end and says how much was dropped', () => {
    const text = `${'head '.repeat(5_000)}=== 3 failed, 2 passed ===`;
    const excerpt = tailExcerpt(text, STDERR_EXCERPT_CHARS);
    expect(excerpt.length).toBeLessThanOrEqual(STDERR_EXCERPT_CHARS);
    expect(excerpt.endsWith('=== 3 failed, 2 passed ===')).toBe(true);
    const [marker, ...rest] = excerpt.split('\n');
    const kept = rest.join('\n');
    const dropped = Number(/(\d+) earlier chars dropped/.exec(marker ?? '')?.[1]);
    expect(dropped + kept.length).toBe(text.length);
    expect(text.endsWith(kept)).toBe(true);
  });

  it('stays within the limit for every length around the cut', () => {
    for (let length = 90; length <= 110; length += 1) {
      for (const limit of [40, 50, 99, 100]) {
        expect(tailExcerpt('y'.repeat(length), limit).length).toBeLessThanOrEqual(limit);
      }
    }
  });

  it('keeps only the tail when the limit is too small for the marker', () => {
    expect(tailExcerpt('abcdefghij', 3)).toBe('hij');
    expect(tailExcerpt('abcdefghij', 0)).toBe('');
  });

  it('does not start with half of a surrogate pair', () => {
    const text = `${'a'.repeat(100)}${'😀'.repeat(40)}`;
    const excerpt = tailExcerpt(text, 51);
    const kept = excerpt.split('\n')[1] ?? '';
    expect(kept.codePointAt(0)).toBe('😀'.codePointAt(0));
    expect(excerpt.length).toBeLessThanOrEqual(51);
  });
});
