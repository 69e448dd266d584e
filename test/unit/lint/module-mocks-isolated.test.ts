// The unit tier shares a module registry between the files of a fork; a file that mocks a module must be listed to
// run isolated, or its mock silently misses a module an earlier file loaded (a run here saw exactly that).
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../platform/paths.js';
import { unitFilesThatMockModules } from '../../support/unit-isolation.js';

async function unitFilesCalling(pattern: RegExp): Promise<string[]> {
  const dir = path.join(projectRoot, 'test', 'unit');
  const files = (await readdir(dir, { recursive: true })).filter((file) => file.endsWith('.test.ts'));
  const matching = await Promise.all(
    files.map(async (file) => (pattern.test(await readFile(path.join(dir, file), 'utf8')) ? file : undefined)),
  );
  return matching.filter((file) => file !== undefined).map((file) => path.posix.join('test', 'unit', file));
}

describe('unit files that mock modules', () => {
  it('are exactly the files run isolated (test/support/unit-isolation.ts)', async () => {
    const mocking = await unitFilesCalling(/\bvi\.(do)?[mM]ock\(/);
    expect(mocking.sort()).toEqual([...unitFilesThatMockModules].sort());
  });
});
