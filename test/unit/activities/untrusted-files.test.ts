// Reading and writing what repository code could have left: links, FIFOs, huge files and paths out of the worktree
// are refused as values, and nothing blocks (a FIFO read without O_NONBLOCK would hang this test until its timeout).
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAdaptationContent } from '../../../activities/coder/adaptation-content.js';
import {
  confineToRoot,
  readConfinedFile,
  readUntrustedFile,
  writeUntrustedFile,
} from '../../../activities/untrusted-files.js';
import { useTempDirs } from '../../support/git-repo.js';

const tempDir = useTempDirs();

const mkfifo = (file: string) => execFileSync('mkfifo', [file]);

describe('untrusted files', () => {
  it('reads a regular file and refuses a link, a FIFO, a folder and a file over the bound', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'report.xml'), '<testsuite/>');
    await writeFile(path.join(dir, 'secret'), 'host secret');
    await symlink(path.join(dir, 'secret'), path.join(dir, 'link.xml'));
    mkfifo(path.join(dir, 'fifo.xml'));
    await writeFile(path.join(dir, 'big.xml'), 'x'.repeat(2_000));

    expect(await readUntrustedFile(path.join(dir, 'report.xml'), 100)).toEqual({
      ok: true,
      text: '<testsuite/>',
      bytes: 12,
    });
    expect(await readUntrustedFile(path.join(dir, 'link.xml'), 100)).toMatchObject({ ok: false, problem: 'link' });
    expect(await readUntrustedFile(path.join(dir, 'fifo.xml'), 100)).toMatchObject({
      ok: false,
      problem: 'not_regular',
      detail: expect.stringContaining('a FIFO'),
    });
    expect(await readUntrustedFile(dir, 100)).toMatchObject({ ok: false, problem: 'not_regular' });
    expect(await readUntrustedFile(path.join(dir, 'big.xml'), 1_000)).toMatchObject({
      ok: false,
      problem: 'too_large',
    });
    expect(await readUntrustedFile(path.join(dir, 'missing.xml'), 100)).toMatchObject({
      ok: false,
      problem: 'missing',
    });
  });

  it('confines a name to the worktree: no `..`, no absolute path elsewhere, no link leading out', async () => {
    const outside = await tempDir();
    const root = await tempDir();
    await writeFile(path.join(outside, 'x.py'), 'HOST = 1\n');
    await mkdir(path.join(root, 'pkg'));
    await writeFile(path.join(root, 'pkg', 'mod.py'), 'INSIDE = 1\n');
    await symlink(path.join(outside, 'x.py'), path.join(root, 'pkg', 'out.py'));
    await symlink('mod.py', path.join(root, 'pkg', 'alias.py'));
    const up = path.relative(root, path.join(outside, 'x.py'));

    expect(confineToRoot(root, 'pkg/mod.py')).toBe(path.join(await realRoot(root), 'pkg', 'mod.py'));
    expect(confineToRoot(root, path.join(root, 'pkg', 'mod.py'))).toBeDefined();
    expect(confineToRoot(root, 'pkg/alias.py')).toBe(path.join(await realRoot(root), 'pkg', 'mod.py'));
    expect(confineToRoot(root, up)).toBeUndefined();
    expect(confineToRoot(root, path.join(outside, 'x.py'))).toBeUndefined();
    expect(confineToRoot(root, 'pkg/out.py')).toBeUndefined();
    expect(await readConfinedFile(root, up, 1_000)).toMatchObject({ ok: false, problem: 'outside' });
    expect(await readConfinedFile(root, 'pkg/mod.py', 1_000)).toMatchObject({ ok: true, text: 'INSIDE = 1\n' });
  });

  it('writes a regular file, and never through a link or into a FIFO', async () => {
    const dir = await tempDir();
    await writeFile(path.join(dir, 'target'), 'host file\n');
    await symlink(path.join(dir, 'target'), path.join(dir, 'link.py'));
    mkfifo(path.join(dir, 'fifo.py'));

    expect(await writeUntrustedFile(path.join(dir, 'new.py'), 'A = 1\n')).toEqual({ ok: true });
    expect(await readFile(path.join(dir, 'new.py'), 'utf8')).toBe('A = 1\n');
    expect(await writeUntrustedFile(path.join(dir, 'new.py'), 'B\n')).toEqual({ ok: true });
    expect(await readFile(path.join(dir, 'new.py'), 'utf8')).toBe('B\n');
    expect(await writeUntrustedFile(path.join(dir, 'link.py'), 'owned\n')).toMatchObject({
      ok: false,
      problem: 'link',
    });
    expect(await readFile(path.join(dir, 'target'), 'utf8')).toBe('host file\n');
    expect(await writeUntrustedFile(path.join(dir, 'fifo.py'), 'x')).toMatchObject({
      ok: false,
      problem: 'not_regular',
    });
  });

  it('an adaptation never reads a file a traceback names outside the worktree (`..`, absolute, a link out)', async () => {
    const outside = await tempDir();
    const root = await tempDir();
    await writeFile(path.join(outside, 'leak.py'), 'HOST_SECRET = "s3cr3t"\n');
    await writeFile(path.join(root, 'calc.py'), 'def add(a, b):\n    return a - b\n');
    await symlink(path.join(outside, 'leak.py'), path.join(root, 'linked.py'));
    const up = path.relative(root, path.join(outside, 'leak.py'));
    const evidence = [
      `File "${up}", line 1`,
      `File "${path.join(outside, 'leak.py')}", line 1`,
      'File "linked.py", line 1',
      'File "calc.py", line 2',
    ];

    const blocks = await readAdaptationContent(root, 'show_error_location', evidence);

    expect(blocks).toHaveLength(1);
    expect(blocks[0]).toContain('calc.py around line 2');
    expect(blocks.join('\n')).not.toContain('s3cr3t');
  });

  it('the failing-test and dependency adaptations never read a node id or an import that leads out', async () => {
    const outside = await tempDir();
    const root = await tempDir();
    await mkdir(path.join(outside, 'pkg'), { recursive: true });
    await writeFile(path.join(outside, 'pkg', 'test_leak.py'), 'def test_leak():\n    HOST_SECRET = "s3cr3t"\n');
    await writeFile(path.join(outside, 'hostmod.py'), 'HOST_SECRET = "s3cr3t"\n');
    await mkdir(path.join(root, 'tests'), { recursive: true });
    // A test file of the worktree importing a module that is only a link to a host file.
    await writeFile(path.join(root, 'tests', 'test_calc.py'), 'import hostmod\n\ndef test_add():\n    assert 1\n');
    await symlink(path.join(outside, 'hostmod.py'), path.join(root, 'hostmod.py'));
    const up = path.relative(root, path.join(outside, 'pkg', 'test_leak.py'));
    const evidence = [`FAILED ${up}::test_leak - assert`, 'FAILED tests/test_calc.py::test_add - assert'];

    const tests = await readAdaptationContent(root, 'increase_tests_shown', evidence);
    const modules = await readAdaptationContent(root, 'expand_dependency_context', evidence);

    expect(tests.join('\n')).toContain('tests/test_calc.py::test_add');
    expect([...tests, ...modules].join('\n')).not.toContain('s3cr3t');
  });
});

async function realRoot(dir: string): Promise<string> {
  const { realpath } = await import('node:fs/promises');
  return realpath(dir);
}
