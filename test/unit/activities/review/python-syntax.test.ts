import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkPythonSyntax } from '../../../../activities/review/python-syntax.js';
import { makeTempDir, removeDirs, writeFiles } from '../../../support/git-repo.js';

const dirs: string[] = [];
afterEach(() => removeDirs(dirs));

async function worktreeWith(files: Record<string, string>): Promise<string> {
  const dir = await makeTempDir();
  dirs.push(dir);
  await writeFiles(dir, files);
  return dir;
}

describe('checkPythonSyntax (real python3 in the worker sandbox)', () => {
  it('reports each broken file with its line and the interpreter message, in the order given', async () => {
    const dir = await worktreeWith({
      'src/ok.py': 'def add(a, b):\n    return a + b\n',
      'src/naïve mod.py': 'x = 1\ny = (\n',
      'src/calc.py': 'def add(a, b):\n    return a +\n',
    });

    const findings = await checkPythonSyntax(dir, ['src/ok.py', 'src/naïve mod.py', 'src/calc.py']);

    expect(findings).toEqual([
      expect.objectContaining({ rule: 'python_syntax', file: 'src/naïve mod.py', line: 2 }),
      expect.objectContaining({ rule: 'python_syntax', file: 'src/calc.py', line: 2 }),
    ]);
    expect(findings[0]?.message).toMatch(/^src\/naïve mod\.py:2: SyntaxError: '\(' was never closed$/);
    expect(findings[1]?.message).toBe('src/calc.py:2: SyntaxError: invalid syntax');
  });

  it('honours a PEP 263 encoding line and reports bytes that are not the declared encoding', async () => {
    const dir = await worktreeWith({});
    await writeFile(path.join(dir, 'latin.py'), Buffer.from('# -*- coding: latin-1 -*-\nname = "caf\xe9"\n', 'latin1'));
    await writeFile(path.join(dir, 'broken.py'), Buffer.from([0x78, 0x20, 0x3d, 0x20, 0x27, 0xff, 0x27, 0x0a]));

    const findings = await checkPythonSyntax(dir, ['latin.py', 'broken.py']);

    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ file: 'broken.py', line: 1 });
    expect(findings[0]?.message).toContain("'utf-8' codec can't decode byte 0xff");
  });

  it('skips files that are not Python or no longer exist, and runs nothing when none is left', async () => {
    const dir = await worktreeWith({ 'notes.md': 'def (\n', 'pkg/data.txt': 'def (\n' });

    expect(await checkPythonSyntax(dir, ['notes.md', 'pkg/data.txt', 'deleted.py'])).toEqual([]);
  });

  it('keeps ast.parse’s meaning: a module-level return is not a syntax finding, new syntax is', async () => {
    // ast.parse accepts it (the compiler, not the parser, refuses it); the rule keeps ast.parse's meaning.
    const dir = await worktreeWith({ 'script.py': 'return 1\n', 'walrus.py': 'if (n := 3) > 2:\n    pass\n' });

    expect(await checkPythonSyntax(dir, ['script.py', 'walrus.py'])).toEqual([]);
  });
});
