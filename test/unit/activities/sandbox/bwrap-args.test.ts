import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bwrapArgs, prlimitArgs } from '../../../../activities/sandbox/bwrap-args.js';
import { defaultLimits } from '../../../../activities/sandbox/policy.js';
import { makeTempDir, removeDirs } from '../../../support/git-repo.js';

const dirs: string[] = [];
afterEach(() => removeDirs(dirs));

const plan = {
  worktree: '/work/wt/task-a1',
  writable: ['/work/artifacts/task/a1/run/test-out'],
  readOnly: ['/home/me/.pyenv/versions/3.11.7'],
  hidden: ['/home/me', '/work', '/', '/usr', '/tmp/x'],
  network: false,
  env: { PATH: '/usr/bin', HOME: '/tmp/home' },
  limits: defaultLimits,
  argv: ['python3', '-m', 'pytest'],
};

const pairsOf = (args: string[], flag: string) => args.flatMap((arg, index) => (arg === flag ? [args[index + 1]] : []));

describe('bwrapArgs', () => {
  it('unshares every namespace, dies with its parent, drops capabilities and clears the environment', () => {
    const args = bwrapArgs(plan);
    for (const flag of ['--unshare-all', '--unshare-user', '--die-with-parent', '--clearenv', '--new-session'])
      expect(args).toContain(flag);
    expect(pairsOf(args, '--cap-drop')).toEqual(['ALL']);
    expect(args).not.toContain('--share-net');
    expect(bwrapArgs({ ...plan, network: true })).toContain('--share-net');
  });

  it('hides home and work folders behind read-only tmpfs, but never the root or a system folder', () => {
    const args = bwrapArgs(plan);
    expect(pairsOf(args, '--tmpfs')).toEqual(['/tmp', '/home/me', '/tmp/x', '/work']);
    expect(pairsOf(args, '--remount-ro')).toEqual(['/home/me', '/tmp/x', '/work']);
  });

  it('binds the worktree and the outputs writable after hiding, Python read-only, and ends with the limited command', () => {
    const args = bwrapArgs(plan);
    expect(args.indexOf('/work/wt/task-a1')).toBeGreaterThan(args.lastIndexOf('--tmpfs'));
    expect(pairsOf(args, '--bind')).toEqual(['/work/wt/task-a1', '/work/artifacts/task/a1/run/test-out']);
    expect(pairsOf(args, '--ro-bind-try')).toEqual(['/home/me/.pyenv/versions/3.11.7']);
    expect(args.slice(args.indexOf('--') + 1)).toEqual([...prlimitArgs(defaultLimits), 'python3', '-m', 'pytest']);
    expect(prlimitArgs({ ...defaultLimits, memoryMb: 256, processes: 64 })).toContain(`--as=${256 * 1024 * 1024}`);
  });

  it('binds a read-only folder once, and not again inside another bound one, unless a link leads there', async () => {
    const root = await makeTempDir();
    dirs.push(root);
    const prefix = path.join(root, 'python');
    const elsewhere = path.join(root, 'elsewhere');
    await mkdir(path.join(prefix, 'lib', 'site-packages'), { recursive: true });
    await mkdir(path.join(elsewhere, 'lib'), { recursive: true });
    await symlink(elsewhere, path.join(prefix, 'linked'));
    const readOnly = [
      prefix,
      path.join(prefix, 'lib'),
      path.join(prefix, 'lib', 'site-packages'),
      // Below a link: the prefix's bind shows the link, not what it points to, so this bind stays.
      path.join(prefix, 'linked', 'lib'),
      prefix,
      '/no/such/folder',
    ];
    expect(pairsOf(bwrapArgs({ ...plan, readOnly }), '--ro-bind-try')).toEqual([
      prefix,
      path.join(prefix, 'linked', 'lib'),
      '/no/such/folder',
    ]);
  });
});
