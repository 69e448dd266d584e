// A secret typed into a task (its goal or test environment) would be stored in Temporal's history for good, so the
// task is refused before anything starts; the worker reads secrets from its own environment instead.
import { personTextTooLong } from '../../domain/payload-bounds.js';
import { findSecretsInTask, secretValuesIn } from '../../domain/secrets.js';
import type { TaskSpec } from '../../domain/task-spec.js';
import { UsageError } from '../cli-errors.js';

/** Throws a UsageError (exit 2) naming each field that holds a secret; the secret itself is never repeated. */
export function refuseSecretsInTask(
  spec: Pick<TaskSpec, 'goal' | 'testEnv' | 'secretEnvNames'>,
  env: NodeJS.ProcessEnv = process.env,
): void {
  const found = findSecretsInTask(spec, secretValuesIn(env, spec.secretEnvNames));
  if (found.length === 0) return;
  const fields = found.map(({ field, what }) => `${field} holds ${what}`).join('; ');
  throw new UsageError(
    `invalid task: ${fields}. A task's fields are stored in workflow history: remove the secret and let the code read it from ` +
      "the worker's environment (name it with --secret-env / secretEnvNames so it is scrubbed everywhere)",
  );
}

/**
 * A retry hint goes into workflow history and the coder's prompt like a goal does: refuse one holding a key format or
 * the value of a secret-named variable, or longer than a goal may be (exit 2), naming the flag but never the value.
 */
export function refuseSecretsInHint(
  hint: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  flag = '--hint',
): void {
  if (hint === undefined) return;
  const tooLong = personTextTooLong(flag, hint);
  if (tooLong) throw new UsageError(`invalid ${tooLong}`);
  const found = findSecretsInTask({ goal: hint, testEnv: {} }, secretValuesIn(env, []));
  if (found.length === 0) return;
  const what = found.map((hit) => hit.what).join('; ');
  throw new UsageError(
    `invalid ${flag}: it holds ${what}. A hint is stored in workflow history and sent to the model: describe the fix ` +
      "without the secret, and let the code read it from the worker's environment",
  );
}
