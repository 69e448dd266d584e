// The worker's sandbox settings checked as input, before anything starts: a wrong --sandbox or TASKLOOP_SANDBOX_*
// value is the user's to fix (exit 2 with the setting, the value and the choices), not a failure of the worker.
import { resolveSandboxMode, resolveWorkerLimits, SandboxConfigError } from '../activities/sandbox/policy.js';

export function checkSandboxSettings(
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
): { success: true } | { success: false; error: string } {
  try {
    resolveSandboxMode(flag, env);
    resolveWorkerLimits(env);
    return { success: true };
  } catch (error) {
    if (error instanceof SandboxConfigError) return { success: false, error: error.message };
    throw error;
  }
}
