import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scrubChunk, scrubFileToArtifact } from '../../../../activities/sandbox/scrub-file.js';
import { SMALL_FILE_BYTES } from '../../../../activities/small-files.js';
import { makeTempDir, removeDirs } from '../../../support/git-repo.js';

const dirs: string[] = [];
afterEach(() => removeDirs(dirs));

describe('scrubbing a log chunk by chunk', () => {
  it('never emits part of a secret that straddles a chunk boundary', () => {
    const secret = 'hunter2-secret';
    const text = `aaaa${secret}bbbb${secret}`;
    for (let size = 1; size <= text.length; size += 1) {
      let carry = '';
      let out = '';
      for (let at = 0; at < text.length; at += size) {
        const next = scrubChunk(carry + text.slice(at, at + size), [secret], false);
        out += next.out;
        carry = next.carry;
      }
      out += scrubChunk(carry, [secret], true).out;
      expect(out).toBe('aaaa[redacted]bbbb[redacted]');
    }
  });

  // A small log is read and written whole; a larger one is streamed chunk by chunk (64 KiB reads).
  it.each([
    ['a small log, whole', 200_000],
    ['a large log, streamed', SMALL_FILE_BYTES + 200_000],
  ])('copies %s into an artifact without the secret values', async (_, padding) => {
    const dir = await makeTempDir();
    dirs.push(dir);
    const source = path.join(dir, 'raw.log');
    await writeFile(source, `${'x'.repeat(padding)}token-abcdef${'y'.repeat(70_000)}token-abcdef`);
    const ref = await scrubFileToArtifact({
      source,
      dir,
      name: 'test-stdout.log',
      secretValues: ['token-abcdef'],
      hostId: 'h',
    });
    const text = await readFile(ref.path, 'utf8');
    expect(text).not.toContain('token-abcdef');
    expect(text.match(/\[redacted\]/g)).toHaveLength(2);
    expect(ref.bytes).toBe(Buffer.byteLength(text));
    expect(text).toHaveLength(padding + 70_000 + 2 * '[redacted]'.length);
    expect(await readdir(dir)).toEqual(['raw.log', 'test-stdout.log']);
  });
});
