import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listFilesTool } from '../../../../../activities/coder/tools/list-files.js';
import { readFileTool } from '../../../../../activities/coder/tools/read-file.js';
import { searchTool } from '../../../../../activities/coder/tools/search.js';
import { createTempRepo, createToolContext, type TempRepo } from '../fixtures.js';

let t: TempRepo;
beforeEach(async () => {
  t = await createTempRepo({
    'README.md': 'Calculator\n',
    'calc/core.py': 'def add(a, b):\n    return a - b\n\ndef sub(a, b):\n    return a - b\n',
    'tests/test_core.py': 'from calc.core import add\n\ndef test_add():\n    assert add(1, 2) == 3\n',
  });
  await mkdir(path.join(t.repo, '__pycache__'));
  await writeFile(path.join(t.repo, '__pycache__', 'core.pyc'), 'add(');
});
afterEach(() => t.cleanup());

describe('list_files', () => {
  it('lists the root without .git or caches, and recursively on request', async () => {
    const context = createToolContext(t.repo);
    expect((await listFilesTool.run({}, context)).reply).toBe('README.md\ncalc/\ntests/');
    expect((await listFilesTool.run({ path: 'calc', recursive: true }, context)).reply).toBe('calc/core.py');
    expect((await listFilesTool.run({ recursive: true }, context)).reply).toBe(
      'README.md\ncalc/\ncalc/core.py\ntests/\ntests/test_core.py',
    );
  });

  it('replies with an error for a missing directory or an escape', async () => {
    const context = createToolContext(t.repo);
    expect((await listFilesTool.run({ path: 'nope' }, context)).reply).toContain("'nope' is not a directory");
    expect((await listFilesTool.run({ path: '..' }, context)).reply).toContain('refused');
  });
});

describe('read_file', () => {
  it('shows numbered lines and honours start_line and end_line', async () => {
    const context = createToolContext(t.repo);
    expect((await readFileTool.run({ path: 'calc/core.py' }, context)).reply).toBe(
      'calc/core.py (lines 1-5 of 5)\n1\tdef add(a, b):\n2\t    return a - b\n3\t\n4\tdef sub(a, b):\n5\t    return a - b',
    );
    expect((await readFileTool.run({ path: 'calc/core.py', start_line: 2, end_line: 3 }, context)).reply).toBe(
      'calc/core.py (lines 2-3 of 5; call again with start_line=4 for more)\n2\t    return a - b\n3\t',
    );
  });

  it('replies naming the argument or the problem instead of throwing', async () => {
    const context = createToolContext(t.repo);
    expect((await readFileTool.run({ path: 'calc/core.py', start_line: 'two' }, context)).reply).toContain(
      "argument 'start_line'",
    );
    expect((await readFileTool.run({ path: 'calc/none.py' }, context)).reply).toBe(
      "error: 'calc/none.py' does not exist.",
    );
    expect((await readFileTool.run({ path: '/etc/passwd' }, context)).reply).toContain(
      'absolute paths are not allowed',
    );
  });
});

describe('search', () => {
  it('finds plain text as file:line: text, skipping caches', async () => {
    const reply = (await searchTool.run({ pattern: 'add(' }, createToolContext(t.repo))).reply;
    expect(reply).toBe(
      'calc/core.py:1: def add(a, b):\ntests/test_core.py:3: def test_add():\ntests/test_core.py:4:     assert add(1, 2) == 3',
    );
  });

  it('searches what a commit would hold: the files the coder created and every other file not ignored', async () => {
    await writeFile(path.join(t.repo, 'stray.py'), 'def add_stray():\n');
    await writeFile(path.join(t.repo, 'calc', 'new.py'), 'def add_more():\n');
    const context = createToolContext(t.repo);
    context.changedFiles.add('calc/new.py');
    context.changedFiles.add('calc/core.py');
    expect((await searchTool.run({ pattern: 'def add' }, context)).reply).toBe(
      'calc/core.py:1: def add(a, b):\ncalc/new.py:1: def add_more():\nstray.py:1: def add_stray():',
    );
    expect((await searchTool.run({ pattern: 'add_more', path: 'tests' }, context)).reply).toBe(
      "no matches for 'add_more' in 'tests'",
    );
  });

  it('supports regular expressions and a path, and reports a bad regex', async () => {
    const context = createToolContext(t.repo);
    expect((await searchTool.run({ pattern: '^def \\w+\\(', regex: true, path: 'calc' }, context)).reply).toBe(
      'calc/core.py:1: def add(a, b):\ncalc/core.py:4: def sub(a, b):',
    );
    expect((await searchTool.run({ pattern: '(', regex: true }, context)).reply).toContain(
      "argument 'pattern' is not a valid regular expression",
    );
    expect((await searchTool.run({ pattern: 'zzz' }, context)).reply).toBe("no matches for 'zzz' in '.'");
  });
});

describe('files the tests left', () => {
  it('read_file and write_file refuse a FIFO at once, and write_file never writes through a link out', async () => {
    const { execFileSync } = await import('node:child_process');
    const { readFile, symlink } = await import('node:fs/promises');
    const { writeFileTool } = await import('../../../../../activities/coder/tools/write-file.js');
    execFileSync('mkfifo', [path.join(t.repo, 'calc', 'pipe.py')]);
    const context = createToolContext(t.repo);

    expect((await readFileTool.run({ path: 'calc/pipe.py' }, context)).reply).toContain('is not a regular file');
    expect((await writeFileTool.run({ path: 'calc/pipe.py', content: 'x' }, context)).reply).toContain(
      'not a regular file',
    );

    const outside = path.join(path.dirname(t.repo), `${path.basename(t.repo)}-outside.txt`);
    await writeFile(outside, 'host\n');
    try {
      await symlink(outside, path.join(t.repo, 'calc', 'escape.py'));
      const reply = (await writeFileTool.run({ path: 'calc/escape.py', content: 'owned\n' }, context)).reply;
      expect(reply).toMatch(/^error: /);
      expect(await readFile(outside, 'utf8')).toBe('host\n');
    } finally {
      const { rm } = await import('node:fs/promises');
      await rm(outside, { force: true });
    }
  });
});
