import { access, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deleteFileTool, moveFileTool } from '../../../../../activities/coder/tools/file-moves.js';
import { gitDiffTool, gitLogTool, showFileTool } from '../../../../../activities/coder/tools/git-tools.js';
import { createTempRepo, createToolContext, type TempRepo } from '../fixtures.js';

let t: TempRepo;
beforeEach(async () => {
  t = await createTempRepo({ 'calc.py': 'def add(a, b):\n    return a - b\n', 'notes.txt': 'old\n' });
});
afterEach(() => t.cleanup());

describe('git tools', () => {
  it('git_diff shows changes against HEAD, new files included, from a snapshot of the worktree', async () => {
    const context = createToolContext(t.repo);
    expect((await gitDiffTool.run({}, context)).reply).toBe('(no changes)');
    await writeFile(path.join(t.repo, 'calc.py'), 'def add(a, b):\n    return a + b\n');
    await writeFile(path.join(t.repo, 'extra.py'), 'X = 1\n');
    const { reply } = await gitDiffTool.run({}, context);
    expect(reply).toContain('-    return a - b\n+    return a + b');
    expect(reply).toContain('+++ b/extra.py\n@@ -0,0 +1 @@\n+X = 1');
    expect((await gitDiffTool.run({ path: 'extra.py' }, context)).reply).not.toContain('calc.py');
    expect((await gitDiffTool.run({ ref: 'no-such-ref' }, context)).reply).toContain('is not a commit');
    expect((await gitDiffTool.run({ ref: '--output=/tmp/x' }, context)).reply).toContain("argument 'ref' of git_diff");
    expect((await gitDiffTool.run({ path: '../outside' }, context)).reply).toContain('refused');
  });

  it('git_log lists commits and show_file reads a file as it was at a ref', async () => {
    const context = createToolContext(t.repo);
    expect((await gitLogTool.run({}, context)).reply).toMatch(/^[0-9a-f]{7,} \d{4}-\d\d-\d\d seed$/);
    await writeFile(path.join(t.repo, 'calc.py'), 'changed\n');
    expect((await showFileTool.run({ path: 'calc.py' }, context)).reply).toBe(
      'calc.py at HEAD:\ndef add(a, b):\n    return a - b\n',
    );
    expect((await showFileTool.run({ path: 'nope.py' }, context)).reply).toContain(
      "error: 'nope.py' does not exist at HEAD",
    );
  });
});

describe('delete_file and move_file', () => {
  it('delete and move files inside the worktree, and record them as changed', async () => {
    const context = createToolContext(t.repo);
    expect((await moveFileTool.run({ from: 'notes.txt', to: 'docs/notes.txt' }, context)).reply).toBe(
      'moved notes.txt to docs/notes.txt',
    );
    expect(await readFile(path.join(t.repo, 'docs', 'notes.txt'), 'utf8')).toBe('old\n');
    expect((await deleteFileTool.run({ path: 'docs/notes.txt' }, context)).reply).toBe('deleted docs/notes.txt');
    await expect(access(path.join(t.repo, 'docs', 'notes.txt'))).rejects.toThrow();
    expect([...context.changedFiles].sort()).toEqual(['docs/notes.txt', 'notes.txt']);
  });

  it('refuse paths outside the worktree, into .git, missing sources and taken destinations', async () => {
    const context = createToolContext(t.repo);
    expect((await deleteFileTool.run({ path: '../x' }, context)).reply).toContain('refused');
    expect((await deleteFileTool.run({ path: '.git/config' }, context)).reply).toContain('refused');
    expect((await moveFileTool.run({ from: 'calc.py', to: '/tmp/calc.py' }, context)).reply).toContain('refused');
    expect((await moveFileTool.run({ from: 'calc.py', to: 'notes.txt' }, context)).reply).toContain(
      "'notes.txt' already exists",
    );
    expect((await deleteFileTool.run({ path: 'missing.py' }, context)).reply).toBe(
      "error: 'missing.py' does not exist.",
    );
  });
});
