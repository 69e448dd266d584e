// The attack suite: repository code that makes nested git repositories in the worktree, each defining a filter in
// its own config and naming it in its own .gitattributes (issue 51). Host git over the worktree (`git add -A`, `git
// status`, `git diff HEAD`) recursed into them and ran the filter as the worker's user. The worktree is data now: the
// change is taken from its bytes, and no host git has it as its work tree.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDirs } from '../../support/git-repo.js';
import { useTestTemporal } from '../support/temporal.js';
import { git, taskloopCommits } from '../support/tasks.js';
import { nestedRepoTurns } from './attack-files.js';
import { causeOf, makeCanaryHome, runAttack } from './attack-support.js';

const home = await makeCanaryHome();
afterAll(() => removeDirs([home]));

/** The base commit holds a submodule's gitlink at `sub` (never initialised): its folder is empty in a worktree. */
async function withSubmodule(repo: string): Promise<void> {
  const head = (await git(repo, 'rev-parse', 'HEAD')).trim();
  await git(repo, 'update-index', '--add', '--cacheinfo', `160000,${head},sub`);
  await git(repo, '-c', 'user.name=t', '-c', 'user.email=t@e', 'commit', '-qm', 'a submodule');
}

describe('the attack suite: nested repositories', () => {
  const t = useTestTemporal('attack-nested');

  it("a nested repository's filter never runs on the host, through the test run or the coder's git_diff", async () => {
    const marker = (name: string) => path.join(home, `filter-ran-${name}.txt`);
    const [testRun, gitDiff] = await Promise.all([
      runAttack(t, nestedRepoTurns.testRun(), { env: { ATTACK_MARKER: marker('test-run') }, prepare: withSubmodule }),
      runAttack(t, nestedRepoTurns.gitDiff(), { env: { ATTACK_MARKER: marker('git-diff') }, prepare: withSubmodule }),
    ]);

    // The filter never ran: no host git read the nested repositories' config or attributes.
    expect(existsSync(marker('test-run'))).toBe(false);
    expect(existsSync(marker('git-diff'))).toBe(false);

    // The test node found the nested repositories in the worktree's bytes: the tests did not run, the node failed with
    // the finding, and nothing was committed.
    expect(testRun.outcome.status).toBe('FAILED');
    expect(causeOf(testRun.outcome)).toBe('ReviewFinding');
    expect(testRun.outcome.attempts[0]?.failure?.node).toBe('test');
    const findings = testRun.outcome.attempts[0]?.test?.refused ?? [];
    expect(findings.filter((finding) => finding.rule === 'nested_git').map((finding) => finding.file)).toEqual(
      expect.arrayContaining(['vendored', 'sub']),
    );
    expect(testRun.outcome.commit).toBeUndefined();
    expect(await git(testRun.repo, 'branch', '--list', testRun.branch)).toBe('');

    // The coder looked with git_diff while they existed, then its own run removed them: the change is committed, and
    // the commit holds the fix and the test file, nothing of vendored/ and the submodule's gitlink as it was.
    expect(gitDiff.outcome.status).toBe('COMPLETED');
    const sha = gitDiff.outcome.commit?.sha ?? '';
    expect(await taskloopCommits(gitDiff.repo, gitDiff.branch)).toEqual([expect.stringContaining(sha)]);
    const changed = (await git(gitDiff.repo, 'diff-tree', '-r', '--name-only', '--no-commit-id', sha)).trim();
    expect(changed.split('\n').sort()).toEqual(['calc.py', 'tests/test_nested.py']);
    const base = (await git(gitDiff.repo, 'rev-parse', `${sha}^:sub`)).trim();
    expect((await git(gitDiff.repo, 'rev-parse', `${sha}:sub`)).trim()).toBe(base);
  });
});
