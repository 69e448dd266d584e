// One instance of a suite derived by running its tests (see derive-suite.ts): FAIL_TO_PASS and PASS_TO_PASS from the
// fix's test files at its parent and at the fix, and the existing tests the fix rewrites whose old versions (the
// task's own tests) fail on the fixed code: through the loop such an instance cannot be resolved, so it is reported.
import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { compactNodeIds } from '../../domain/eval/compact-ids.js';
import { classifyTestChanges, isTestPath, rewrittenTestConflicts } from '../../domain/eval/fix-tests.js';
import type { SuiteInstance } from '../../domain/eval/suite.js';
import { isRepoUrl } from '../../domain/repo-url.js';
import type { TestCaseResult } from '../../domain/records.js';
import { resolveWorkerSandbox, sandboxPolicyFor } from '../../activities/sandbox/index.js';
import { runTests, type TestEnvironment } from '../../activities/tests/index.js';
import { environmentCacheDir, ensureEnvironment } from '../../activities/environments/index.js';
import type { EnvironmentSpec } from '../../domain/environment.js';

const git = async (dir: string, args: string[]) =>
  (await execa('git', ['-c', 'core.hooksPath=/dev/null', '-C', dir, ...args], { maxBuffer: 64 << 20 })).stdout;

async function runAt(
  checkout: string,
  sha: string,
  overlay: { ref: string; paths: string[] },
  command: string[],
  env: Record<string, string>,
  environment?: TestEnvironment,
) {
  await git(checkout, ['checkout', '--quiet', '--force', '--detach', sha]);
  await git(checkout, ['clean', '-qfdx']);
  await git(checkout, ['checkout', '--quiet', overlay.ref, '--', ...overlay.paths]);
  const workDir = path.join(os.tmpdir(), 'taskloop-derive');
  const result = await runTests({
    worktreePath: checkout,
    command: [...command, ...overlay.paths.filter(isTestPath)],
    testEnv: env,
    timeoutMs: 600_000,
    secretValues: [],
    artifactDir: path.join(workDir, path.basename(checkout), sha.slice(0, 12)),
    hostId: 'derive',
    sandbox: sandboxPolicyFor(resolveWorkerSandbox({ workDir })),
    maxCases: 50_000,
    ...(environment ? { environment } : {}),
  });
  return new Map(result.cases.map((c: TestCaseResult) => [c.id, c.outcome]));
}

/** The instance with its test ids, and the rewritten tests whose old versions fail on the fix. */
export async function deriveInstance(
  instance: SuiteInstance,
  suiteDir: string,
  defaults: { testCommand?: string[]; testEnv?: Record<string, string>; environment?: EnvironmentSpec },
) {
  const mirror = instance.mirror ? path.resolve(suiteDir, instance.mirror) : undefined;
  // A local repository is relative to the sources file, as in a suite.
  const repo = isRepoUrl(instance.repo) ? instance.repo : path.resolve(suiteDir, instance.repo);
  const source = mirror && existsSync(mirror) ? mirror : repo;
  const checkout = await mkdtemp(path.join(os.tmpdir(), `derive-${instance.id}-`));
  try {
    await execa('git', [
      'clone',
      '--quiet',
      '--no-checkout',
      ...(source === mirror ? ['--shared'] : []),
      source,
      checkout,
    ]);
    const fix = (await git(checkout, ['rev-parse', `${instance.fixCommit}^{commit}`])).trim();
    const base = (await git(checkout, ['rev-parse', `${fix}^`])).trim();
    const changed = (
      await git(checkout, ['diff-tree', '--no-commit-id', '--name-only', '--diff-filter=d', '-r', base, fix])
    )
      .split('\n')
      .filter((file) => isTestPath(file) || path.basename(file) === 'conftest.py');
    const overlay = { ref: fix, paths: changed };
    const command = instance.testCommand ?? defaults.testCommand ?? ['python3', '-m', 'pytest'];
    const env = { ...defaults.testEnv, ...instance.testEnv };
    // The instance's environment, keyed at the base as the eval's tasks key it; every run uses it.
    const spec = instance.environment ?? defaults.environment;
    const workDir = path.join(os.tmpdir(), 'taskloop-derive');
    const environment =
      spec &&
      (await ensureEnvironment({
        repo: instance.repo,
        repoPath: checkout,
        baseSha: base,
        spec,
        cacheDir: environmentCacheDir(workDir),
        policy: sandboxPolicyFor(resolveWorkerSandbox({ workDir })),
        hostId: 'derive',
        log: (line) => console.error(`${instance.id}: ${line}`),
      }));
    const before = await runAt(checkout, base, overlay, command, env, environment);
    const after = await runAt(checkout, fix, overlay, command, env, environment);
    // The existing tests the fix rewrites: their old versions, at the base, run against the fixed code.
    const diff = await git(checkout, ['show', '--format=', '-W', fix, '--', ...changed]);
    const { edited } = classifyTestChanges(diff);
    const existing = changed.filter((file) => isTestPath(file) && edited.some((id) => id.startsWith(`${file}::`)));
    const oldOnFix =
      existing.length === 0
        ? new Map<string, string>()
        : await runAt(checkout, fix, { ref: base, paths: existing }, command, env, environment);
    const rewritten = rewrittenTestConflicts(edited, oldOnFix);
    const failToPass = [...after].filter(([id, o]) => o === 'passed' && before.get(id) !== 'passed').map(([id]) => id);
    // Written short: a class or file whose every test passes both times is one id (see domain/eval/compact-ids.ts).
    const passToPass = compactNodeIds(
      [...after].filter(([id, o]) => o === 'passed' && before.get(id) === 'passed').map(([id]) => id),
      [...new Set([...after.keys(), ...before.keys()])],
    );
    const goal =
      instance.goal.trim() !== '-' ? instance.goal : (await git(checkout, ['log', '-1', '--format=%B', fix])).trim();
    console.error(
      `${instance.id}: ${failToPass.length} FAIL_TO_PASS, ${passToPass.length} PASS_TO_PASS (base ${base.slice(0, 12)})`,
    );
    if (failToPass.length === 0) throw new Error(`${instance.id}: no test fails at the base and passes at the fix`);
    return { instance: { ...instance, fixCommit: fix, goal, failToPass, passToPass }, rewritten };
  } finally {
    await rm(checkout, { recursive: true, force: true });
  }
}
