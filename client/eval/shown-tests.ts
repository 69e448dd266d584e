// `taskloop eval --tests shown`: each instance starts from a commit of its own, the base with the fix's test files laid
// on it (kept by refs/taskloop/tests-shown/<id> in the eval's copy of the repository), its test command runs the tests
// that decide and its goal names the failing ones. Verification is unchanged: the fix's tests laid over the task's
// commit are the ones already there.
import { shownGoal, shownTestCommand } from '../../domain/eval/shown-tests.js';
import { redactUrls } from '../../domain/repo-url.js';
import { UsageError } from '../cli-errors.js';
import { git } from './git.js';
import { commitPatches } from './patch-commit.js';
import type { ResolvedInstance } from './resolve-instances.js';

/** The instance as the coder sees it with its tests shown. */
export async function showTests(instance: ResolvedInstance): Promise<ResolvedInstance> {
  const shown = {
    ...instance,
    goal: shownGoal(instance.goal, instance.failToPass, instance.testCommand, instance.testEnv),
    testCommand: shownTestCommand(instance.testCommand, instance.failToPass, instance.passToPass),
  };
  // Without an overlay the suite named tests that are in the repository at the base already.
  if (!instance.overlay || instance.overlay.paths.length === 0) return shown;
  const { ref, paths } = instance.overlay;
  const diff = await git(instance.repo, ['diff', '--binary', '--no-renames', instance.baseSha, ref, '--', ...paths]);
  const made =
    diff === undefined
      ? undefined
      : await commitPatches({
          repo: instance.repo,
          base: instance.baseSha,
          patches: [{ name: 'tests', diff: `${diff}\n` }],
          ref: `refs/taskloop/tests-shown/${instance.id}`,
          message: `the tests of ${instance.id}'s fix (${ref.slice(0, 12)}), shown to the coder`,
        });
  if (!made?.ok)
    throw new UsageError(
      `taskloop eval --tests shown: instance ${instance.id}: cannot lay the fix's tests (${paths.join(', ')}) on ` +
        `${instance.baseSha.slice(0, 12)} in ${redactUrls(instance.repo)}: ${made?.detail ?? 'git diff failed'}; ` +
        'fix: run it with --tests hidden',
    );
  return { ...shown, baseSha: made.sha };
}
