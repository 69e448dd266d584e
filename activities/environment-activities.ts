// The task workflow's environment step: after the claim, on the attempt's host, the repository's environment is found
// in the cache or built (activities/environments), and the reference every test run of the attempt uses comes back.
import { Context } from '@temporalio/activity';
import { localRepoPath } from './git/index.js';
import { environmentCacheDir, ensureEnvironment, type EnvironmentRef } from './environments/index.js';
import { sandboxPolicyFor, type WorkerSandbox } from './sandbox/index.js';
import { resolveSecretValues } from './secret-values.js';
import type { PrepareEnvironmentInput } from './task-activity-types.js';

export interface EnvironmentDeps {
  hostId: string;
  workDir: string;
  workerSandbox: WorkerSandbox;
}

export function createEnvironmentActivities(deps: EnvironmentDeps) {
  return {
    /** Finds or builds the attempt's environment; a set-up that fails throws EnvironmentSetupFailed (non-retryable). */
    async prepareEnvironment(input: PrepareEnvironmentInput): Promise<EnvironmentRef> {
      const context = Context.current();
      const ref = await ensureEnvironment({
        repo: input.repo,
        repoPath: localRepoPath(input.repo, deps.workDir),
        baseSha: input.baseSha,
        spec: input.environment,
        cacheDir: environmentCacheDir(deps.workDir),
        policy: sandboxPolicyFor(deps.workerSandbox, input.sandbox),
        hostId: deps.hostId,
        secretValues: resolveSecretValues(input.secretEnvNames),
        heartbeat: (details) => context.heartbeat(details),
        signal: context.cancellationSignal,
        log: (line) => context.log.info(line),
      });
      context.log.info(`environment ${ref.name} ${ref.built ? 'built' : 'reused'}`, {
        environment: ref.name,
        built: ref.built,
        setupMs: ref.setupMs,
      });
      return ref;
    },
  };
}
