import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Hex, shortHash } from '../../../../domain/learning/sha256.js';

const nodeSha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

describe('sha256Hex', () => {
  it('matches the published vectors for "" and "abc"', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('matches node:crypto for a 1000-character string', () => {
    const text = Array.from({ length: 1000 }, (_, i) => String.fromCharCode(33 + ((i * 7) % 90))).join('');
    expect(text).toHaveLength(1000);
    expect(sha256Hex(text)).toBe(nodeSha256(text));
  });

  it('matches node:crypto at the padding boundaries (55, 56, 63, 64, 65 bytes)', () => {
    for (const length of [55, 56, 63, 64, 65, 119, 120])
      expect(sha256Hex('a'.repeat(length))).toBe(nodeSha256('a'.repeat(length)));
  });

  it('matches node:crypto for text beyond ASCII, including emoji and lone surrogates', () => {
    for (const text of ['é', 'ü ß 中文', '👍 ok', 'a\ud800b', '\udc00', 'end\ud83d'])
      expect(sha256Hex(text)).toBe(nodeSha256(text));
  });
});

describe('shortHash', () => {
  it('is the first 12 hex digits of the digest', () => {
    expect(shortHash('abc')).toBe('ba7816bf8f01');
  });

  it('keeps the ids the hand-written hash gave skills and lessons', () => {
    // Digests recorded from the previous implementation: stored skill and lesson ids must not change.
    expect(shortHash('flaky-test\nretry the network call')).toBe('a4ff5bbb1851');
  });
});
