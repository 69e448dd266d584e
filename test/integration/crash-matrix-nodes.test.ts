// The crash matrix, part 1: a worker killed (alone with SIGKILL, or with its whole process group) at each node of
// an attempt, restarted on the same host. Each run ends COMPLETED with one trailer commit and nothing left behind.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { calcFiles, fixTurns, turn } from '../support/calc-project.js';
import { CrashRun, recordRecovery, recoveries } from './support/crash-run.js';
import { git } from './support/tasks.js';
import { eventually, useTestClient } from './support/temporal.js';

// A test that takes a few seconds, so a kill during pytest lands while it runs.
// The coder runs the slow tests once before it finishes, so the code node lasts long enough to be caught.
const slowCoder = () => {
  const [edit, finish] = fixTurns();
  return [edit, turn('run_tests', {}), finish].filter((step) => step !== undefined);
};
const slowFiles = { ...calcFiles, 'tests/test_slow.py': 'import time\n\n\ndef test_slow():\n    time.sleep(4)\n' };

describe('a worker crash at each node of an attempt', () => {
  const t = useTestClient();
  afterEach(() => CrashRun.stopAll());
  afterAll(() => console.log(recoveries.join('\n')));

  it.each([
    ['claim', 'group'],
    ['code', 'worker'],
    ['test', 'group'],
    ['review', 'worker'],
    ['commit', 'group'],
  ] as const)(
    'at %s (%s kill): completes with one commit, no worktree, no process left, no duplicate event',
    async (phase, mode) => {
      // Each node is an activity of its own (the review's rules alone, no model), but the judge: its rules run in the
      // workflow.
      const run = await CrashRun.start(t.client, {
        files: slowFiles,
        coder: phase === 'code' ? slowCoder() : fixTurns(),
        // All take milliseconds with git run directly: a slower git keeps the crash inside their activity (the commit
        // writes its tree's commit with `git commit-tree`: the worktree is data, docs/security.md).
        slowGit: { claim: ['worktree'], review: ['diff'], commit: ['commit-tree'] }[phase as string],
      });
      // The claim is a local activity inside a workflow task, where no query sees its phase: its slowed git shows it
      // (`git worktree add`, activities/git/create-worktree.ts).
      if (phase === 'claim')
        await eventually(
          'the claim running',
          async () => (await run.workerRuns(' worktree add ')) || undefined,
          90_000,
        );
      else await run.waitFor(`phase ${phase}`, (state) => state.phase === phase);
      await run.crash(mode);
      recordRecovery(`${phase} (${mode} kill)`, await run.finish('COMPLETED'));
    },
  );

  // The commit activity commits, then removes the worktree: its retry finds the commit by its trailer and removes.
  it('after the commit, before the worktree is removed (group kill): one commit, the worktree removed', async () => {
    const run = await CrashRun.start(t.client, { files: slowFiles, coder: fixTurns() });
    await eventually(
      'the trailer commit',
      async () =>
        (await git(run.repo, 'branch', '--list', run.branch.replace('taskloop/', 'taskloop/*'))) ? true : undefined,
      90_000,
    );
    await eventually(
      'the commit on the branch',
      async () =>
        (await git(run.repo, 'log', '-1', '--format=%B', run.branch).catch(() => '')).includes('Taskloop-Run')
          ? true
          : undefined,
      90_000,
    );
    await run.crash('group');
    const seconds = await run.finish('COMPLETED');
    recordRecovery('after commit, before removal (group kill)', seconds);
    expect(seconds).toBeGreaterThan(0);
  });
});
