import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveInWorktree } from '../../../../../activities/coder/tools/path-guard.js';
import { createTempRepo, type TempRepo } from '../fixtures.js';

let t: TempRepo;
beforeEach(async () => {
  t = await createTempRepo({ 'src/app.py': 'x = 1\n' });
  await mkdir(path.join(t.base, 'outside'));
  await writeFile(path.join(t.base, 'outside', 'secret.txt'), 'secret');
});
afterEach(() => t.cleanup());

describe('resolveInWorktree', () => {
  it('accepts repo-relative paths and normalises them', async () => {
    expect(await resolveInWorktree(t.repo, './src//app.py')).toEqual({
      success: true,
      data: { absolute: path.join(t.repo, 'src', 'app.py'), relative: 'src/app.py' },
    });
    expect(await resolveInWorktree(t.repo, 'src/../new/file.py')).toMatchObject({
      success: true,
      data: { relative: 'new/file.py' },
    });
    expect(await resolveInWorktree(t.repo, '.')).toMatchObject({
      success: true,
      data: { absolute: t.repo, relative: '.' },
    });
  });

  it.each([
    ['../x', 'leaves the worktree'],
    ['src/../../x', 'leaves the worktree'],
    ['/etc/passwd', 'absolute'],
    ['.git/config', '.git'],
    ['src/.git/hooks/pre-commit', '.git'],
  ])('refuses %s', async (p, why) => {
    const result = await resolveInWorktree(t.repo, p);
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error).toContain(why);
  });

  it('refuses symlinks whose real path leaves the worktree, at any level', async () => {
    await symlink(path.join(t.base, 'outside'), path.join(t.repo, 'linkdir'));
    await symlink(path.join(t.base, 'outside', 'secret.txt'), path.join(t.repo, 'src', 'link.txt'));
    for (const p of ['linkdir', 'linkdir/secret.txt', 'linkdir/new/deeper.py', 'src/link.txt']) {
      const result = await resolveInWorktree(t.repo, p);
      expect(result, p).toMatchObject({
        success: false,
        error: expect.stringContaining('points outside the worktree'),
      });
    }
  });

  it('refuses symlinks into .git and dangling symlinks, but allows symlinks that stay inside', async () => {
    await symlink(path.join(t.repo, '.git'), path.join(t.repo, 'gitlink'));
    await symlink(path.join(t.base, 'missing'), path.join(t.repo, 'dangling'));
    await symlink(path.join(t.repo, 'src'), path.join(t.repo, 'srclink'));
    expect(await resolveInWorktree(t.repo, 'gitlink/config')).toMatchObject({
      success: false,
      error: expect.stringContaining('into .git'),
    });
    expect(await resolveInWorktree(t.repo, 'dangling')).toMatchObject({
      success: false,
      error: expect.stringContaining('does not exist'),
    });
    expect(await resolveInWorktree(t.repo, 'srclink/app.py')).toMatchObject({ success: true });
  });
});
