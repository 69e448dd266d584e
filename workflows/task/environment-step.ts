// The attempt's environment step: on its host, after the claim and before anything runs the repository's code, the
// repository's environment is found in the cache or built (activities/environments). A set-up that fails is the claim
// node's failure (EnvironmentSetupFailed). Only tasks with the field `environment` take the step: it is newer than
// every recorded history, so no patch is needed.
import type { Claim } from '../../activities/index.js';
import type { EnvironmentSpec } from '../../domain/environment.js';
import type { HostActivities } from './proxies.js';
import { passed, runNode, type AttemptContext, type AttemptResult } from './run-node.js';

/** Sets `claim.environment` (and the attempt's record); returns the failure when the step failed. */
export async function prepareEnvironment(
  context: AttemptContext,
  claim: Claim,
  host: HostActivities,
  environment: EnvironmentSpec,
): Promise<Extract<AttemptResult, { kind: 'failed' }> | undefined> {
  const { run } = context;
  const { spec } = run;
  const record = run.currentAttempt;
  const ref = { workflowId: run.state.workflowId, attempt: record.attempt };
  const prepared = await runNode(context, 'claim', async () =>
    passed(
      await host.prepareEnvironment(`environment, attempt ${ref.attempt}`, {
        ...ref,
        repo: spec.repo,
        baseSha: claim.baseSha,
        environment,
        sandbox: { sandbox: spec.sandbox, network: spec.network, limits: spec.limits },
        secretEnvNames: spec.secretEnvNames,
      }),
    ),
  );
  if (!prepared.ok) return { kind: 'failed', ...prepared };
  const { name, built, setupMs } = prepared.value;
  record.environment = { name, built, setupMs };
  claim.environment = prepared.value;
  return undefined;
}
