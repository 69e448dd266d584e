import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { artifactDirFor, toSafeName, writeArtifact } from '../../../activities/artifacts.js';
import { SMALL_FILE_BYTES } from '../../../activities/small-files.js';
import { makeTempDir, removeDirs } from '../../support/git-repo.js';

const dirs: string[] = [];
afterEach(() => removeDirs(dirs));

describe('artifactDirFor', () => {
  it('puts each attempt in its own folder under the work dir', () => {
    expect(artifactDirFor('/w', 'task-demo-1', 2)).toBe('/w/artifacts/task-demo-1/a2');
  });

  it('keeps workflow ids with slashes or dots inside the artifacts folder', () => {
    const dir = artifactDirFor('/w', '../../etc/passwd', 1);
    expect(path.dirname(path.dirname(dir))).toBe('/w/artifacts');
    expect(path.basename(path.dirname(dir))).toMatch(/^[A-Za-z0-9._-]+$/);
  });

  it('refuses an attempt that is not a positive integer', () => {
    expect(() => artifactDirFor('/w', 'x', 0)).toThrow(/attempt must be a positive integer/);
  });
});

describe('toSafeName', () => {
  it('keeps safe ids and separates ids that clean up to the same text', () => {
    expect(toSafeName('task-demo_1.x')).toBe('task-demo_1.x');
    expect(toSafeName('a/b')).not.toBe(toSafeName('a_b'));
    expect(toSafeName('a/b')).not.toBe(toSafeName('a:b'));
  });
});

describe('writeArtifact', () => {
  // Small content is written synchronously, larger content through fs/promises (activities/small-files.ts).
  it.each([
    ['small', ''],
    ['larger than SMALL_FILE_BYTES', 'z'.repeat(SMALL_FILE_BYTES)],
  ])('creates the folder, writes %s content and leaves no temp file', async (_, padding) => {
    const root = await makeTempDir();
    dirs.push(root);
    const dir = path.join(root, 'deep', 'er');

    const ref = await writeArtifact({ dir, name: 'diff.patch', content: `${padding}héllo\n`, hostId: 'h1' });
    await writeArtifact({ dir, name: 'diff.patch', content: `${padding}héllo again\n`, hostId: 'h1' });

    expect(ref).toEqual({ hostId: 'h1', path: path.join(dir, 'diff.patch'), bytes: padding.length + 7 });
    expect(await readFile(ref.path, 'utf8')).toBe(`${padding}héllo again\n`);
    expect(await readdir(dir)).toEqual(['diff.patch']);
  });

  it('refuses a name with folders in it', async () => {
    await expect(writeArtifact({ dir: '/tmp', name: '../x', content: '', hostId: 'h' })).rejects.toMatchObject({
      type: 'InvalidArtifactName',
      nonRetryable: true,
    });
  });
});

describe('writeArtifact and the scrubber', () => {
  it('scrubs secret-named values of the worker environment and key formats from every artifact', async () => {
    const dir = await makeTempDir();
    dirs.push(dir);
    process.env.ARTIFACT_TEST_TOKEN = 'artifact-canary-7781';
    try {
      const ref = await writeArtifact({
        dir,
        name: 'log.txt',
        content: `token artifact-canary-7781 and AKIA${'Q'.repeat(16)}`,
        hostId: 'h',
      });
      expect(await readFile(ref.path, 'utf8')).toBe('token [redacted] and [redacted]');
    } finally {
      delete process.env.ARTIFACT_TEST_TOKEN;
    }
  });
});
