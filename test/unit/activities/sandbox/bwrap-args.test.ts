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

const valueAfter = (list: string[], flag: string) => list[list.indexOf(flag) + 1];
const notEtc = (list: (string | undefined)[]) => list.filter((entry) => !entry?.startsWith('/etc/'));
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

  it('gives set-up a network of its own: held until slirp4netns is attached, its resolver as /etc/resolv.conf', () => {
    const args = bwrapArgs({ ...plan, egress: { resolvConf: '/work/logs/setup-1/resolv.conf' } });
    expect(args).not.toContain('--share-net');
    expect(valueAfter(args, '--info-fd')).toBe('3');
    expect(valueAfter(args, '--block-fd')).toBe('4');
    // Bound after /etc's entries, so it is the one the run sees.
    const resolv = args.lastIndexOf('/etc/resolv.conf');
    expect(args.slice(resolv - 2, resolv + 1)).toEqual([
      '--ro-bind',
      '/work/logs/setup-1/resolv.conf',
      '/etc/resolv.conf',
    ]);
    expect(args.indexOf('--ro-bind-try')).toBeLessThan(resolv);
  });

  it('builds the root of the system folders and a few files of /etc only: no /, /run, /var, homes or /etc/shadow', () => {
    const args = bwrapArgs(plan);
    const roBinds = pairsOf(args, '--ro-bind');
    expect(roBinds).toContain('/usr');
    expect(roBinds).not.toContain('/');
    const tried = pairsOf(args, '--ro-bind-try');
    expect(tried).toEqual(expect.arrayContaining(['/etc/passwd', '/etc/ld.so.cache', '/etc/ssl']));
    for (const absent of ['/', '/run', '/var', '/home', '/etc', '/etc/shadow', '/root'])
      expect([...roBinds, ...tried, ...pairsOf(args, '--bind')]).not.toContain(absent);
    // The folders made to hold the binds are read-only too, once everything is bound.
    expect(pairsOf(args, '--remount-ro').at(-1)).toBe('/');
  });

  it('covers a hidden folder only where a shown folder holds it, never the root or a system folder', () => {
    // Home and the work folder are not in the root at all: nothing to cover; a folder under the private /tmp is.
    expect(pairsOf(bwrapArgs(plan), '--tmpfs')).toEqual(['/tmp', '/tmp/x']);
    const shown = { ...plan, readOnly: ['/opt/tool'], hidden: [...plan.hidden, '/opt/tool/state', '/usr/local/s'] };
    expect(pairsOf(bwrapArgs(shown), '--tmpfs')).toEqual(['/tmp', '/opt/tool/state', '/tmp/x', '/usr/local/s']);
    expect(pairsOf(bwrapArgs(shown), '--remount-ro')).toEqual(['/opt/tool/state', '/tmp/x', '/usr/local/s', '/']);
    // /tmp is sized: what a run writes there counts against its written bytes.
    expect(valueAfter(bwrapArgs(plan), '--size')).toBe(String(defaultLimits.writtenMb * 1024 * 1024));
  });

  it("binds a run's own host folder as /tmp when given one (measured with the worktree), before the folders inside it", () => {
    const args = bwrapArgs({ ...plan, tmp: '/work/artifacts/task/a1/raw/tmp' });
    expect(args).not.toContain('--size');
    expect(pairsOf(args, '--tmpfs')).toEqual(['/tmp/x']);
    expect(pairsOf(args, '--bind')[0]).toBe('/work/artifacts/task/a1/raw/tmp');
    expect(valueAfter(args, '/work/artifacts/task/a1/raw/tmp')).toBe('/tmp');
    expect(args.indexOf('/work/artifacts/task/a1/raw/tmp')).toBeLessThan(args.indexOf('/tmp/x'));
  });

  it('binds the worktree and the outputs writable after hiding, Python read-only, and ends with the limited command', () => {
    const args = bwrapArgs(plan);
    expect(args.indexOf('/work/wt/task-a1')).toBeGreaterThan(args.lastIndexOf('--tmpfs'));
    expect(pairsOf(args, '--bind')).toEqual(['/work/wt/task-a1', '/work/artifacts/task/a1/run/test-out']);
    expect(notEtc(pairsOf(args, '--ro-bind-try'))).toEqual([
      '/home/me/.pyenv/versions/3.11.7',
      // The worktree's .git pointer is bound over read-only: the tests cannot make it name another git folder.
      '/work/wt/task-a1/.git',
    ]);
    expect(args.slice(args.indexOf('--') + 1)).toEqual([...prlimitArgs(defaultLimits), 'python3', '-m', 'pytest']);
    expect(prlimitArgs({ ...defaultLimits, memoryMb: 256, processes: 64 })).toContain(`--as=${256 * 1024 * 1024}`);
  });

  it('shows a built environment at its fixed path: read-only for tests, writable only while set-up builds it', () => {
    const source = '/work/environments/calc-0123456789abcdef/env';
    const indexOfMount = (args: string[], flag: string) =>
      args.findIndex((arg, index) => arg === flag && args[index + 1] === source && args[index + 2] === '/taskloop/env');
    const tests = bwrapArgs({ ...plan, mounts: [{ source, dest: '/taskloop/env' }] });
    expect(indexOfMount(tests, '--ro-bind')).toBeGreaterThan(tests.lastIndexOf('--tmpfs'));
    expect(indexOfMount(tests, '--bind')).toBe(-1);
    const setup = bwrapArgs({ ...plan, mounts: [{ source, dest: '/taskloop/env', writable: true }] });
    expect(indexOfMount(setup, '--bind')).toBeGreaterThan(-1);
    expect(indexOfMount(setup, '--ro-bind')).toBe(-1);
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
    expect(notEtc(pairsOf(bwrapArgs({ ...plan, readOnly }), '--ro-bind-try'))).toEqual([
      prefix,
      path.join(prefix, 'linked', 'lib'),
      '/no/such/folder',
      '/work/wt/task-a1/.git',
    ]);
  });
});
