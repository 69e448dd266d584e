// A test run that hangs past its timeout is re-run once as an environment problem (a loaded machine can be slow); one
// that hangs again is the code's fault: a new attempt, told why, rather than more re-runs (a ptrace hang cost four
// timeouts, three re-runs under the environment retry limit, before the task failed as an environment problem).
import type { ClassifiedCause, FailureCause } from './failure-causes.js';

/** Re-runs a timed-out test node gets before the timeout counts against the code. */
export const TIMEOUT_RERUNS = 1;

/**
 * The class and retry of a cause after `rerunsUsed` re-runs of its node in this attempt: a TestTimeout after
 * TIMEOUT_RERUNS of them is a code_defect calling for a new attempt, with a message that says so; anything else as
 * the table classed it.
 */
export function classifyRepeatedTimeout(
  cause: FailureCause,
  classified: ClassifiedCause,
  rerunsUsed: number,
): { cause: FailureCause; classified: ClassifiedCause } {
  if (cause.kind !== 'TestTimeout' || rerunsUsed < TIMEOUT_RERUNS) return { cause, classified };
  const runs = rerunsUsed + 1;
  return {
    cause: {
      ...cause,
      message: `${cause.message} (timed out in each of ${runs} runs: the code hangs, not the machine)`,
      details: { ...cause.details, runs },
    },
    classified: { failureClass: 'code_defect', retry: 'new_attempt' },
  };
}
