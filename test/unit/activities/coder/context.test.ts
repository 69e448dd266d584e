import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildCoderMessages, buildRepoMap } from '../../../../activities/coder/context.js';
import type { AttemptSummary } from '../../../../activities/coder/context.js';
import { createTempRepo, type TempRepo } from './fixtures.js';

let t: TempRepo;
beforeEach(async () => {
  t = await createTempRepo({ '.gitignore': 'build/\n', 'calc/core.py': 'a = 1\nb = 2\n', 'README.md': 'hi\n' });
});
afterEach(() => t.cleanup());

const failedAttempt: AttemptSummary = {
  attempt: 1,
  status: 'failed',
  failureClass: 'test_failure',
  coderSummary: 'Changed add to use minus.',
  reviewFindings: [{ rule: 'test_file_edited', message: 'tests were edited', file: 'tests/test_core.py', line: 3 }],
  judgeFindings: [{ rule: 'tests_fail', message: 'pytest failed' }],
  test: {
    counts: { total: 2, passed: 1, failed: 1, errors: 0, skipped: 0 },
    stdoutExcerpt: 'FAILED tests/test_core.py::test_add - assert -1 == 3\n',
    stderrExcerpt: 'DeprecationWarning: old api',
  },
};

describe('buildRepoMap', () => {
  it('lists tracked and untracked-not-ignored files with line counts for Python files', async () => {
    await writeFile(path.join(t.repo, 'new.py'), 'x = 1\n');
    await writeFile(path.join(t.repo, 'notes.txt'), 'n');
    await writeFile(path.join(t.repo, '.gitignore'), 'build/\nnotes.txt\n');
    // Ignore rules are the base commit's (the worktree's copy is data): a .gitignore written now ignores nothing yet.
    expect(await buildRepoMap(t.repo)).toBe(
      '.gitignore\nREADME.md\ncalc/core.py (2 lines)\nnew.py (1 lines)\nnotes.txt',
    );
    execFileSync('git', ['-C', t.repo, 'add', '.gitignore']);
    execFileSync('git', ['-C', t.repo, '-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'ignore']);
    expect(await buildRepoMap(t.repo)).toBe('.gitignore\nREADME.md\ncalc/core.py (2 lines)\nnew.py (1 lines)');
  });

  it('maps the listing it is given (the coder lists the worktree once for the map and the relevant files)', async () => {
    expect(await buildRepoMap(t.repo, { files: ['calc/core.py', 'docs/gone.py'] })).toBe(
      'calc/core.py (2 lines)\ndocs/gone.py',
    );
  });

  it('stops at maxFiles and says how many more there are', async () => {
    expect(await buildRepoMap(t.repo, { maxFiles: 1 })).toBe(
      '.gitignore\n... and 2 more files (use list_files to see them)',
    );
  });
});

describe('buildCoderMessages', () => {
  it('puts the rules in the system message and the goal and repo map in the user message', () => {
    const [system, user] = buildCoderMessages({
      goal: 'Fix add',
      repoMap: 'calc/core.py (2 lines)',
      previousAttempts: [],
      secretValues: [],
    });
    expect(system.role).toBe('system');
    expect(system.content).toContain('replace_in_file(path, old, new)');
    expect(system.content).toContain('Do not edit or delete tests unless the goal tells you to');
    expect(user).toMatchObject({
      role: 'user',
      content: expect.stringContaining('# Goal\nFix add\n\n# Repository files\ncalc/core.py (2 lines)'),
    });
    expect(user.content).not.toContain('# Previous attempts');
    expect(user.content).not.toContain('# Hint');
  });

  it('shows every previous attempt with findings and test evidence, and the hint under its own heading', () => {
    const [, user] = buildCoderMessages({
      goal: 'Fix add',
      repoMap: '',
      previousAttempts: [failedAttempt],
      hint: 'add must return a + b',
      secretValues: [],
    });
    const text = user.content;
    expect(text).toContain('## What attempt 1 did (ended failed, test_failure)');
    expect(text).toContain('Coder summary: Changed add to use minus.');
    expect(text).toContain('- [test_file_edited] (tests/test_core.py:3) tests were edited');
    expect(text).toContain('- [tests_fail] pytest failed');
    expect(text).toContain('Tests: 2 total, 1 passed, 1 failed, 0 errors, 0 skipped');
    expect(text).toContain('FAILED tests/test_core.py::test_add - assert -1 == 3');
    expect(text).toContain('DeprecationWarning: old api');
    expect(text).toContain('# Hint from a human\nadd must return a + b');
  });

  it('says which ignored files were removed before the tests, and nothing when none were', () => {
    const removed = {
      ...failedAttempt,
      test: { ...failedAttempt.test!, ignoredRemoved: ['tests/conftest.py', 'build'] },
    };
    const messages = (attempt: AttemptSummary) =>
      buildCoderMessages({ goal: 'Fix add', repoMap: '', previousAttempts: [attempt], secretValues: [] })[1].content;
    expect(messages(removed)).toContain(
      'Removed before the tests (git ignores them, so the commit would not hold them): tests/conftest.py, build',
    );
    expect(messages(failedAttempt)).not.toContain('Removed before the tests');
  });

  it('redacts secret values everywhere in the messages', () => {
    const messages = buildCoderMessages({
      goal: 'use token s3cr3t-value',
      repoMap: '',
      previousAttempts: [{ ...failedAttempt, coderSummary: 'tried s3cr3t-value' }],
      secretValues: ['s3cr3t-value'],
    });
    expect(JSON.stringify(messages)).not.toContain('s3cr3t-value');
    expect(messages[1].content).toContain('use token [redacted]');
  });
});
