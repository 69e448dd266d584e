import { spawn, type ChildProcess } from 'node:child_process';
import { symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkPythonSyntax, MAX_SOURCE_BYTES } from '../../../../activities/review/python-syntax.js';
import { parsePython } from '../../../../activities/review/python-parser.js';
import { resolveWorkerSandbox, sandboxPolicyFor } from '../../../../activities/sandbox/index.js';
import { makeTempDir, removeDirs, writeFiles } from '../../../support/git-repo.js';

// The real spawn, watched: how many processes a check starts and with what argv.
vi.mock('node:child_process', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:child_process')>();
  return { ...original, spawn: vi.fn(original.spawn) };
});

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

describe('the python3 behind checkPythonSyntax', () => {
  const policy = sandboxPolicyFor(resolveWorkerSandbox({ workDir: os.tmpdir() }));

  it('parses every source of a check in one process, in the sandbox, and leaves no process behind', async () => {
    const sources = ['a.py', 'b.py'].map((name) => ({ name, source: Buffer.from('x = (\n') }));
    const spawned = vi.mocked(spawn);
    spawned.mockClear();

    expect(await parsePython(sources, policy, 60_000)).toEqual([
      expect.objectContaining({ index: 0, line: 1 }),
      expect.objectContaining({ index: 1, line: 1 }),
    ]);
    expect(spawned).toHaveBeenCalledTimes(1);
    const argv = [spawned.mock.calls[0]?.[0], ...((spawned.mock.calls[0]?.[1] as string[]) ?? [])];
    // Under bubblewrap the parser has a network namespace of its own and no folder of the host bound.
    if (policy.mode === 'bwrap') {
      expect(argv).toEqual(expect.arrayContaining(['bwrap', '--unshare-all', '--die-with-parent']));
      expect(argv).not.toContain('--bind');
      expect(argv).not.toContain('--share-net');
    } else expect(argv).toEqual(expect.arrayContaining(['--pdeathsig', 'KILL']));
    const child = spawned.mock.results[0]?.value as ChildProcess;
    expect(child.exitCode ?? child.signalCode).not.toBeNull();
  });

  it('reports sources the parser cannot hold as findings; a check past its timeout fails', async () => {
    const dir = await worktreeWith({ 'deep.py': `a${'.a'.repeat(200_000)}\n`, 'ok.py': 'y = 2\n' });
    await writeFile(path.join(dir, 'huge.py'), Buffer.alloc(MAX_SOURCE_BYTES + 1, 0x20));

    const findings = await checkPythonSyntax(dir, ['deep.py', 'huge.py', 'ok.py'], policy);

    expect(findings.map(({ file }) => file)).toEqual(['deep.py', 'huge.py']);
    expect(findings[0]?.message).toMatch(/^deep\.py: RecursionError: maximum recursion depth exceeded/);
    expect(findings[1]?.message).toBe('huge.py: not parsed: 16.0 MB is over the 16 MB a Python source may have');
    // A reply cannot come within 1 ms for 8 MB: the check fails as one that gave no result.
    const big = { name: 'big.py', source: Buffer.alloc(8 * 1024 * 1024, 0x20) };
    await expect(parsePython([big], policy, 1)).rejects.toMatchObject({ type: 'SyntaxCheckFailed' });
    expect(await checkPythonSyntax(dir, ['ok.py'], policy)).toEqual([]);
  });

  it('skips symbolic links, to files or through folders, so it never reads outside the worktree', async () => {
    const outside = await worktreeWith({ 'secret.py': 'token = "€" €\n', 'pkg/mod.py': 'def (\n' });
    const dir = await worktreeWith({ 'real.py': 'def (\n' });
    await symlink(path.join(outside, 'secret.py'), path.join(dir, 'link.py'));
    await symlink(path.join(outside, 'pkg'), path.join(dir, 'pkg'));

    const findings = await checkPythonSyntax(dir, ['link.py', 'pkg/mod.py', 'real.py'], policy);

    expect(findings.map(({ file }) => file)).toEqual(['real.py']);
  });
});
