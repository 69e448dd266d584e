// The worker's own check of a task's goal and hint for secrets. The CLI refuses such a task only when its own
// environment holds the value; a CLI on another machine (or a start through Temporal's own tools) never checks, so
// the worker checks too, before the goal reaches a model or a commit message.
import { ApplicationFailure } from '@temporalio/common';
import { findSecretsInTask, secretValuesIn } from '../domain/secrets.js';

/** Throws a non-retryable `SecretInGoal` naming the field and what it holds, never the value. */
export function refuseSecretInGoal(
  task: { goal: string; hint?: string; secretEnvNames: string[] },
  env: NodeJS.ProcessEnv = process.env,
): void {
  const secrets = secretValuesIn(env, task.secretEnvNames);
  const found = [
    ...findSecretsInTask({ goal: task.goal, testEnv: {} }, secrets),
    ...findSecretsInTask({ goal: task.hint ?? '', testEnv: {} }, secrets).map((hit) => ({ ...hit, field: 'hint' })),
  ];
  if (found.length === 0) return;
  throw ApplicationFailure.create({
    type: 'SecretInGoal',
    message:
      `the task's ${found.map(({ field, what }) => `${field} holds ${what}`).join('; ')}: it would reach the model ` +
      "and the commit message, so the task stops here. Start it again without the secret and let the code read it from the worker's environment",
    nonRetryable: true,
  });
}
