import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replaceInFileTool } from '../../../../../activities/coder/tools/replace-in-file.js';
import { createTempRepo, createToolContext, type TempRepo } from '../fixtures.js';

const source = [
  'import os',
  '',
  'def cache_key(name, version):',
  '    return f"{name}"',
  '',
  'def other():',
  '    return 1',
  '',
  'def third():',
  '    return 1',
  '',
].join('\n');

let t: TempRepo;
beforeEach(async () => {
  t = await createTempRepo({ 'pkg/cache.py': source });
});
afterEach(() => t.cleanup());

describe('replace_in_file', () => {
  it('replaces a unique occurrence and counts a patch success and a mutation', async () => {
    const context = createToolContext(t.repo);
    const outcome = await replaceInFileTool.run(
      { path: 'pkg/cache.py', old: 'return f"{name}"', new: 'return f"{name}:{version}"' },
      context,
    );
    expect(outcome.reply).toBe('replaced 1 occurrence in pkg/cache.py at line 4');
    expect(await readFile(path.join(t.repo, 'pkg/cache.py'), 'utf8')).toContain('return f"{name}:{version}"');
    expect(context.telemetry).toMatchObject({
      patchAttempts: 1,
      patchSuccesses: 1,
      patchMismatches: 0,
      mutationOperations: 1,
    });
    expect([...context.changedFiles]).toEqual(['pkg/cache.py']);
  });

  it('shows the closest lines with line numbers when old is not found, and changes nothing', async () => {
    const context = createToolContext(t.repo);
    const outcome = await replaceInFileTool.run(
      { path: 'pkg/cache.py', old: 'def cache_key(name):\n    return name', new: 'x' },
      context,
    );
    expect(outcome.reply).toContain("'old' was not found in pkg/cache.py");
    expect(outcome.reply).toContain('best match at line 3');
    expect(outcome.reply).toContain(
      '1\timport os\n2\t\n3\tdef cache_key(name, version):\n4\t    return f"{name}"\n5\t',
    );
    expect(outcome.reply).not.toContain('6\tdef other');
    expect(await readFile(path.join(t.repo, 'pkg/cache.py'), 'utf8')).toBe(source);
    expect(context.telemetry).toMatchObject({
      patchAttempts: 1,
      patchSuccesses: 0,
      patchMismatches: 1,
      mutationOperations: 0,
    });
    expect([...context.failedReplacePaths]).toEqual(['pkg/cache.py']);
  });

  it("applies an old text whose indentation is wrong, carrying the file's indentation to the new text", async () => {
    const context = createToolContext(t.repo);
    const outcome = await replaceInFileTool.run(
      {
        path: 'pkg/cache.py',
        old: 'def cache_key(name, version):\n  return f"{name}"',
        new: 'def cache_key(name, version):\n  return f"{name}:{version}"',
      },
      context,
    );
    expect(outcome.reply).toBe(
      'replaced 1 occurrence in pkg/cache.py at line 3 (old matched these lines only when whitespace is ignored; read_file shows the result)',
    );
    expect(await readFile(path.join(t.repo, 'pkg/cache.py'), 'utf8')).toContain(
      'def cache_key(name, version):\n    return f"{name}:{version}"\n',
    );
    expect(context.telemetry).toMatchObject({ patchSuccesses: 1, patchMismatches: 0 });
  });

  it('applies an old text with a small slip to the one most similar block, and says so', async () => {
    const context = createToolContext(t.repo);
    const outcome = await replaceInFileTool.run(
      {
        path: 'pkg/cache.py',
        old: 'def cache_key(name, version):\n    return f"{name}";',
        new: 'def cache_key(name, version):\n    return f"{name}:{version}"',
      },
      context,
    );
    expect(outcome.reply).toMatch(
      /at line 3 \(old did not match exactly; the most similar block \(\d+% alike\) was replaced/,
    );
    const text = await readFile(path.join(t.repo, 'pkg/cache.py'), 'utf8');
    expect(text).toContain('    return f"{name}:{version}"\n\ndef other');
  });

  it('refuses an old text that occurs several times and lists where', async () => {
    const context = createToolContext(t.repo);
    const outcome = await replaceInFileTool.run(
      { path: 'pkg/cache.py', old: '    return 1', new: '    return 2' },
      context,
    );
    expect(outcome.reply).toContain("'old' occurs 2 times in pkg/cache.py (lines 7, 10)");
    expect(outcome.reply).toContain('6\tdef other():');
    expect(outcome.reply).toContain('9\tdef third():');
    expect(context.telemetry.patchMismatches).toBe(1);
  });

  it('replies naming the argument when one is missing or of the wrong type', async () => {
    const context = createToolContext(t.repo);
    expect((await replaceInFileTool.run({ path: 'pkg/cache.py', new: 'x' }, context)).reply).toContain(
      "argument 'old' is required",
    );
    expect((await replaceInFileTool.run({ path: 7, old: 'a', new: 'b' }, context)).reply).toContain("argument 'path'");
    expect(context.telemetry).toMatchObject({ patchAttempts: 2, patchMismatches: 2 });
  });

  it('says the file does not exist and that old occurs in no file either', async () => {
    const outcome = await replaceInFileTool.run(
      { path: 'pkg/none.py', old: 'no such text', new: 'b' },
      createToolContext(t.repo),
    );
    expect(outcome.reply).toBe(
      "error: 'pkg/none.py' does not exist; nothing was changed. old occurs in no file of the repository either: copy the path and the lines from the code shown to you.",
    );
  });
});
