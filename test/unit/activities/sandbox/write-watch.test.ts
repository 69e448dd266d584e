import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { measureTree, overLimits, watchWrites } from '../../../../activities/sandbox/write-watch.js';
import { makeTempDir, removeDirs } from '../../../support/git-repo.js';

const dirs: string[] = [];
afterEach(() => removeDirs(dirs));
const MB = 1024 * 1024;

describe('the write limits of a run', () => {
  it('counts bytes on disk and entries, not through links, and leaves the top-level .git out', async () => {
    const root = await makeTempDir();
    dirs.push(root);
    await mkdir(path.join(root, '.git'));
    await writeFile(path.join(root, '.git', 'big'), Buffer.alloc(MB));
    await mkdir(path.join(root, 'src'));
    await writeFile(path.join(root, 'src', 'a.bin'), Buffer.alloc(MB, 1));
    await symlink('/usr', path.join(root, 'link'));
    const size = await measureTree(root);
    expect(size.entries).toBe(3); // src, src/a.bin, link
    expect(size.bytes).toBeGreaterThanOrEqual(MB);
    expect(size.bytes).toBeLessThan(2 * MB);
  });

  it('names the limit a run went over: added bytes, then new files', () => {
    const before = { bytes: 10 * MB, entries: 100 };
    expect(overLimits(before, { bytes: 12 * MB, entries: 150 }, { writtenMb: 4, files: 100 })).toBeUndefined();
    expect(overLimits(before, { bytes: 15 * MB, entries: 150 }, { writtenMb: 4, files: 100 })).toContain(
      'over 4 MB added',
    );
    expect(overLimits(before, { bytes: 11 * MB, entries: 201 }, { writtenMb: 4, files: 100 })).toContain(
      'over 100 new files',
    );
  });

  it('stops a run once it is over while it runs, and measures once more at its end', async () => {
    const root = await makeTempDir();
    dirs.push(root);
    const watch = await watchWrites([root], { writtenMb: 1, files: 1000 });
    const over = new Promise<string>((resolve) => watch.start(resolve));
    // Three files, each small enough for a per-file cap, together over the run's bytes.
    for (const name of ['a', 'b', 'c']) await writeFile(path.join(root, name), Buffer.alloc(MB / 2, 1));
    expect(await over).toContain('written bytes');
    expect(await watch.stop()).toContain('written bytes');

    const quiet = await watchWrites([root], { writtenMb: 1, files: 2 });
    for (const name of ['d', 'e', 'f']) await writeFile(path.join(root, name), 'x');
    expect(await quiet.stop()).toContain('new files');
  });
});
