// The attack suite, part one: repository code that rewrites the worktree's .git to run a command in taskloop's own
// git, and code that leaves a link, a FIFO, a device or a folder where the JUnit report belongs.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestTemporal } from '../support/temporal.js';
import { git, taskloopCommits } from '../support/tasks.js';
import { attackTurns } from './attack-files.js';
import { CANARY, causeOf, filesHolding, makeCanaryHome, runAttack } from './attack-support.js';
import { removeDirs } from '../../support/git-repo.js';

const home = await makeCanaryHome();
afterAll(() => removeDirs([home]));

describe('the attack suite: git and reports', () => {
  const t = useTestTemporal('attack-git');

  it('a rewritten .git pointer never runs a command or commits elsewhere; a report that is not a file is never read', async () => {
    const marker = (name: string) => path.join(home, `ran-${name}.txt`);
    const gitSwap = (sandbox?: 'none') =>
      runAttack(t, attackTurns.gitSwap(), {
        env: { ATTACK_MARKER: marker(sandbox ?? 'bwrap') },
        extra: sandbox ? { sandbox } : {},
      });
    const reportSwap = (kind: string) =>
      runAttack(t, attackTurns.reportSwap(), {
        env: { ATTACK_KIND: kind, ATTACK_TARGET: path.join(home, '.ssh', 'id_rsa') },
      });
    const [bwrap, none, link, fifo, zero, dir] = await Promise.all([
      gitSwap(),
      gitSwap('none'),
      ...['link', 'fifo', 'zero', 'dir'].map(reportSwap),
    ]);

    // In bwrap the pointer is read-only: the attempt commits on the real branch of the real repository, and the
    // commands its git folder names never ran (taskloop's git addresses the recorded git folder).
    expect(bwrap.outcome.status).toBe('COMPLETED');
    const sha = bwrap.outcome.commit?.sha ?? '';
    expect(await taskloopCommits(bwrap.repo, bwrap.branch)).toEqual([expect.stringContaining(sha)]);
    expect((await git(bwrap.repo, 'cat-file', '-t', sha)).trim()).toBe('commit');
    expect(existsSync(marker('bwrap'))).toBe(false);

    // Unsandboxed the pointer can be rewritten: the attempt fails, typed, naming the change; nothing is committed
    // anywhere (no branch names a commit that does not exist), and no command ran.
    expect(none.outcome.status).toBe('FAILED');
    expect(causeOf(none.outcome)).toBe('WorktreeTampered');
    expect(none.outcome.attempts[0]?.failure?.reason).toContain('.git now names another git folder');
    expect(none.outcome.commit).toBeUndefined();
    expect(await git(none.repo, 'branch', '--list', none.branch)).toBe('');
    expect(existsSync(marker('none'))).toBe(false);

    // A link, a FIFO, /dev/zero or a folder at the report path: never followed or read, the attempt fails typed, the
    // worker kept serving (every task here ended), and the host file is in no artifact.
    for (const [kind, run] of Object.entries({ link, fifo, zero, dir })) {
      expect(run.outcome.status, kind).toBe('FAILED');
      expect(causeOf(run.outcome), kind).toBe('UnsafeTestOutput');
    }
    expect(link.outcome.attempts[0]?.failure?.reason).toContain('link');
    expect(fifo.outcome.attempts[0]?.failure?.reason).toContain('FIFO');
    expect(dir.outcome.attempts[0]?.failure?.reason).toContain('folder');
    expect(await filesHolding(path.join(t.host.workDir, 'artifacts'), CANARY)).toEqual([]);
  });
});
