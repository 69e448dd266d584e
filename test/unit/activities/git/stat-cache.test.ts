// The snapshot's stat cache (activities/git/stat-cache.ts): a file the cache knows is taken unread only while its
// size, mtime, ctime, inode and mode all match, and only when those times were older than the walk's start by the
// racy margin; a change made by code in the worktree (same size, mtime put back) is always taken.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, type Stats } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { attemptStatCacheFile } from '../../../../activities/git/attempt-git-dir.js';
import { removeWorktree } from '../../../../activities/git/remove-worktree.js';
import { snapshotWorktree } from '../../../../activities/git/snapshot-tree.js';
import { loadStatCache, RACY_MARGIN_MS } from '../../../../activities/git/stat-cache.js';
import { makeRepo, makeRepoWithWorktree, removeDirs } from '../../../support/git-repo.js';

const dirs: string[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await removeDirs(dirs);
});

const attempt = (files: Record<string, string>) => makeRepoWithWorktree(dirs, files);

const blob = (repo: string, tree: string, file: string) =>
  execFileSync('git', ['-C', repo, 'cat-file', 'blob', `${tree}:${file}`], { encoding: 'utf8' });

/** Snapshots as if the files were written long before (the clock moved past the racy margin), so all are cached. */
async function snapshotLater(worktreePath: string, baseSha: string) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + 10 * RACY_MARGIN_MS);
  try {
    return await snapshotWorktree({ worktreePath, baseSha });
  } finally {
    vi.useRealTimers();
  }
}

const cachedPaths = (worktreePath: string) =>
  Object.keys((JSON.parse(readFileSync(attemptStatCacheFile(worktreePath), 'utf8')) as { entries: object }).entries);

describe('the snapshot stat cache', () => {
  it('is kept beside the worktree, outside it, and removed with it; an unchanged worktree gets the same tree', async () => {
    const { repoPath, worktreePath, baseSha } = await attempt({ 'calc.py': 'X = 1\n', 'lib/util.py': 'Y = 2\n' });
    await writeFile(path.join(worktreePath, 'new.py'), 'Z = 3\n');
    const first = await snapshotLater(worktreePath, baseSha);
    expect(cachedPaths(worktreePath).sort()).toEqual(['calc.py', 'lib/util.py', 'new.py']);
    expect(path.dirname(attemptStatCacheFile(worktreePath))).toBe(path.dirname(worktreePath));
    const second = await snapshotLater(worktreePath, baseSha);
    expect(second).toEqual(first);
    await removeWorktree({ repoPath, worktreePath });
    expect(existsSync(attemptStatCacheFile(worktreePath))).toBe(false);
  });

  it('takes a file code in the worktree changed with the same size and its mtime put back (its ctime moved)', async () => {
    const { repoPath, worktreePath, baseSha } = await attempt({ 'calc.py': 'def add(a, b):\n    return a - b\n' });
    const file = path.join(worktreePath, 'calc.py');
    await snapshotLater(worktreePath, baseSha);
    expect(cachedPaths(worktreePath)).toEqual(['calc.py']);
    const before = lstatSync(file);
    // What a test could do: the same number of bytes, in place (same inode), and the old mtime set back.
    const script = [
      'import os, sys',
      'path = sys.argv[1]',
      'st = os.stat(path)',
      "with open(path, 'r+b') as f: f.write(b'def add(a, b):\\n    return a + b\\n')",
      'os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))',
    ].join('\n');
    execFileSync('python3', ['-c', script, file]);
    const after = lstatSync(file);
    expect([after.size, after.mtimeMs, after.ino]).toEqual([before.size, before.mtimeMs, before.ino]);
    expect(after.ctimeMs).not.toBe(before.ctimeMs);

    const snapshot = await snapshotLater(worktreePath, baseSha);
    expect(snapshot.changedFiles).toEqual(['calc.py']);
    expect(blob(repoPath, snapshot.treeSha, 'calc.py')).toContain('return a + b');
  });

  it('remembers no entry whose mtime or ctime is not older than the walk start by the racy margin', async () => {
    const { worktreePath } = await attempt({ 'calc.py': 'X = 1\n' });
    const startedMs = 1_000_000;
    const trusted = startedMs - RACY_MARGIN_MS - 1;
    const stats = (mtimeMs: number, ctimeMs: number) =>
      ({ size: 4, mtimeMs, ctimeMs, ino: 7, mode: 0o100644 }) as Stats;
    const entries = {
      'old.py': stats(trusted, trusted),
      'racy-mtime.py': stats(startedMs - RACY_MARGIN_MS, trusted),
      'racy-ctime.py': stats(trusted, startedMs + 5),
    };
    const writing = loadStatCache(worktreePath, 'sha1', startedMs);
    for (const [file, stat] of Object.entries(entries)) writing.remember(file, stat, 'a'.repeat(40));
    writing.save(['digest', 't'.repeat(40)]);

    const reading = loadStatCache(worktreePath, 'sha1', startedMs + 60_000);
    const known = Object.entries(entries).map(([file, stat]) => [file, reading.lookup(file, stat)]);
    expect(known).toEqual([
      ['old.py', 'a'.repeat(40)],
      ['racy-mtime.py', undefined],
      ['racy-ctime.py', undefined],
    ]);
    // Another stat (here another inode) is another file: not known either.
    expect(reading.lookup('old.py', { ...entries['old.py'], ino: 8 } as Stats)).toBeUndefined();
    expect(loadStatCache(worktreePath, 'sha256', startedMs).lookup('old.py', entries['old.py'])).toBeUndefined();
  });

  it('a file written within the racy margin of the snapshot is read again by the next one, whatever its stat', async () => {
    const { repoPath, worktreePath, baseSha } = await attempt({ 'calc.py': 'X = 1\n' });
    await writeFile(path.join(worktreePath, 'calc.py'), 'X = 2\n');
    // The real clock: calc.py was written just now, so the snapshot takes it but does not remember it.
    const first = await snapshotWorktree({ worktreePath, baseSha });
    expect(blob(repoPath, first.treeSha, 'calc.py')).toBe('X = 2\n');
    expect(cachedPaths(worktreePath)).toEqual([]);
  });

  it('keeps nothing for a folder that is not an attempt worktree (no recorded git folder)', async () => {
    const repoPath = await makeRepo({ 'calc.py': 'X = 1\n' });
    dirs.push(repoPath);
    const baseSha = execFileSync('git', ['-C', repoPath, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    await snapshotLater(repoPath, baseSha);
    expect(existsSync(attemptStatCacheFile(repoPath))).toBe(false);
  });
});
