import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  isDirectorySync,
  readSmallFile,
  readText,
  SMALL_FILE_BYTES,
  writeFileAtomic,
  writeSmallFileAtomic,
  writeText,
} from '../../../activities/small-files.js';
import { useTempDirs } from '../../support/git-repo.js';

const tempDir = useTempDirs();

describe('small files', () => {
  it('reads a file, and gives undefined for a missing file or a folder', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'HEAD'), 'ref: refs/heads/main\n');
    expect(readSmallFile(path.join(dir, 'HEAD'))).toBe('ref: refs/heads/main\n');
    expect(readSmallFile(path.join(dir, 'missing'))).toBeUndefined();
    expect(readSmallFile(dir)).toBeUndefined();
    expect(isDirectorySync(dir)).toBe(true);
    expect(isDirectorySync(path.join(dir, 'HEAD'))).toBe(false);
    expect(isDirectorySync(path.join(dir, 'missing'))).toBe(false);
  });

  it('writes atomically, creating the folder, and replaces the whole file', async () => {
    const dir = path.join(await tempDir(), 'a', 'b');
    const file = path.join(dir, 'result.json');
    writeSmallFileAtomic(file, '{"long":"first version"}', `${file}.tmp`);
    writeSmallFileAtomic(file, '{}', `${file}.tmp`);
    expect(await readFile(file, 'utf8')).toBe('{}');
    expect(await readdir(dir)).toEqual(['result.json']);
  });

  it.each([
    ['small', '{"passed":true}'],
    ['larger than SMALL_FILE_BYTES', `{"log":"${'x'.repeat(SMALL_FILE_BYTES)}"}`],
  ])('leaves the old entry and no temporary file when the rename of %s content fails', async (_, content) => {
    const dir = await tempDir();
    // A folder in the target's place: the rename fails after the temporary file was written.
    const target = path.join(dir, 'verdict.json');
    await mkdir(target);
    await expect(writeFileAtomic(target, content, `${target}.tmp`)).rejects.toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
    expect(await readdir(dir)).toEqual(['verdict.json']);
    expect(isDirectorySync(target)).toBe(true);
  });

  // Small content goes through synchronous calls, larger through fs/promises; both read and fail as readFile does.
  it.each([
    ['small', 'print(1)\n'],
    ['larger than SMALL_FILE_BYTES', `${'#'.repeat(SMALL_FILE_BYTES)}\nprint(1)\n`],
  ])('reads and writes %s text, and fails as readFile does', async (_, content) => {
    const dir = await tempDir();
    const file = path.join(dir, 'calc.py');
    await writeText(file, content);
    expect(await readText(file)).toBe(content);
    expect(await readFile(file, 'utf8')).toBe(content);
    await expect(readText(path.join(dir, 'missing.py'))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(readText(dir)).rejects.toMatchObject({ code: 'EISDIR' });
  });
});
