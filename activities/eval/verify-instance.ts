// Independent verification of an eval instance: a fresh checkout of what the task committed (or of the base ref when
// it committed nothing), the instance's hidden test files laid over it, FAIL_TO_PASS and PASS_TO_PASS run once in the
// sandbox through the test node's own runner. It reads nothing the loop said about itself: not its tests, not its judge.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { decideResolved, type Verification } from '../../domain/eval/resolve.js';
import { isRepoUrl } from '../../domain/repo-url.js';
import { fetchBase, localRepoPath } from '../git/index.js';
import { openGit, tryGit } from '../git/run-git.js';
import type { SandboxPolicy } from '../sandbox/index.js';
import { runTests, type TestEnvironment } from '../tests/index.js';
import type { EnvironmentSpec } from '../../domain/environment.js';
import { environmentCacheDir, ensureEnvironment } from '../environments/index.js';

export interface VerifyInstanceInput {
  /** Names the artifact folder: `<workDir>/artifacts/<runName>/verify`. */
  runName: string;
  repo: string;
  baseRef: string;
  /** The task's commit; absent when it committed nothing (the base is checked). */
  commitSha?: string;
  failToPass: string[];
  passToPass: string[];
  testCommand: string[];
  testEnv: Record<string, string>;
  testTimeoutMs: number;
  /** The repository's environment (the suite's field), keyed at the base as the task's own step keys it. */
  environment?: EnvironmentSpec;
  /** Test files taken from `ref` over the checkout before the run (an upstream fix's own tests, unseen by the coder). */
  overlay?: { ref: string; paths: string[] };
}

export interface VerifyDeps {
  workDir: string;
  hostId: string;
  sandbox: SandboxPolicy;
  processDir?: string;
  heartbeat?: (details?: unknown) => void;
  signal?: AbortSignal;
}

const verifyFailure = (message: string) =>
  ApplicationFailure.create({ type: 'VerificationSetupFailed', nonRetryable: true, message });

/** The test files the node ids name, in order, once each. */
export const testFilesOf = (ids: readonly string[]): string[] => [...new Set(ids.map((id) => id.split('::')[0] ?? id))];

export async function verifyInstance(input: VerifyInstanceInput, deps: VerifyDeps): Promise<Verification> {
  const repoPath = isRepoUrl(input.repo)
    ? (await fetchBase(input.repo, deps.workDir, input.baseRef)).repoPath
    : localRepoPath(input.repo, deps.workDir);
  const source = openGit(repoPath);
  const wanted = input.commitSha ?? input.baseRef;
  const sha = (await tryGit(source, ['rev-parse', '--verify', `${wanted}^{commit}`]))?.trim();
  if (!sha) throw verifyFailure(`commit ${wanted} is not in ${repoPath}: the task's branch or the base ref is gone`);

  const parent = path.join(deps.workDir, 'eval-checkouts');
  await mkdir(parent, { recursive: true });
  const checkout = await mkdtemp(path.join(parent, 'verify-'));
  try {
    // A clone of its own (objects shared, nothing of the task's worktree reused): what the commit holds, nothing else.
    await openGit(parent).raw(['clone', '--quiet', '--shared', '--no-checkout', repoPath, checkout]);
    const git = openGit(checkout);
    await git.raw(['checkout', '--quiet', '--detach', sha]);
    if (input.overlay && input.overlay.paths.length > 0)
      await git.raw(['checkout', '--quiet', input.overlay.ref, '--', ...input.overlay.paths]);
    // Files are run whole (a node id of a file that does not exist would stop pytest before any test ran).
    const files = testFilesOf([...input.failToPass, ...input.passToPass]).filter((file) =>
      existsSync(path.join(checkout, file)),
    );
    const environment = input.environment && (await environmentFor(input, input.environment, repoPath, deps));
    const artifactDir = path.join(deps.workDir, 'artifacts', input.runName, 'verify');
    await rm(artifactDir, { recursive: true, force: true });
    const run =
      files.length === 0
        ? undefined
        : await runTests({
            worktreePath: checkout,
            command: [...input.testCommand, ...files],
            testEnv: input.testEnv,
            timeoutMs: input.testTimeoutMs,
            secretValues: [],
            artifactDir,
            hostId: deps.hostId,
            sandbox: deps.sandbox,
            processDir: deps.processDir,
            heartbeat: deps.heartbeat,
            signal: deps.signal,
            maxCases: 20_000,
            ...(environment ? { environment } : {}),
          });
    const runError = run?.outcome === 'error' && run.cases.length === 0 ? (run.reason ?? 'no test result') : undefined;
    return decideResolved({
      sha,
      checked: input.commitSha ? 'commit' : 'base',
      failToPass: input.failToPass,
      passToPass: input.passToPass,
      cases: run?.cases ?? [],
      ...(runError ? { runError } : {}),
    });
  } finally {
    await rm(checkout, { recursive: true, force: true });
  }
}

/** The environment the instance's tasks used: found in the cache (the arm built it before its tasks ran) or built. */
async function environmentFor(
  input: VerifyInstanceInput,
  spec: EnvironmentSpec,
  repoPath: string,
  deps: VerifyDeps,
): Promise<TestEnvironment> {
  const baseSha = (await tryGit(openGit(repoPath), ['rev-parse', '--verify', `${input.baseRef}^{commit}`]))?.trim();
  if (!baseSha) throw verifyFailure(`base ${input.baseRef} is not in ${repoPath}: the eval's repository changed`);
  const { key, name, hostDir, interpreter } = await ensureEnvironment({
    repo: input.repo,
    repoPath,
    baseSha,
    spec,
    cacheDir: environmentCacheDir(deps.workDir),
    policy: deps.sandbox,
    hostId: deps.hostId,
    heartbeat: deps.heartbeat,
    signal: deps.signal,
  });
  return { key, name, hostDir, interpreter };
}
