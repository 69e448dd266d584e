// When a model stops without finishing (stuck repeating itself, or out of steps) after it changed the code, the task's
// tests decide instead of the way it stopped: the 1.5B made the right one-line fix, then sent the same edit three
// times, and the attempt (with the fix in it) was thrown away as CoderStuck.
import { runTestsTool } from './tools/run-tests-tool.js';
import type { ToolContext } from './tools/types.js';

/** The summary a finished result carries when the tests, not the model, ended the run. */
export const testsDecidedSummary = (why: string) =>
  `The model stopped without calling finish (${why}); its change passes the task's tests, run by taskloop at the end.`;

/**
 * Runs the task's tests once on the model's change when the version may run them and runs are left; true when they
 * passed. The run is an in-attempt run like the model's own (counted, logged); the reply is added to the transcript.
 */
export async function testsPassAtStop(
  context: ToolContext,
  toolNames: readonly string[],
  record: (reply: string) => void,
): Promise<boolean> {
  const tests = context.tests;
  if (!tests || !toolNames.includes('run_tests') || context.changedFiles.size === 0) return false;
  const last = context.lastTestRun;
  if (last?.passed && last.mutationsBefore === context.telemetry.mutationOperations) return true;
  if ((context.telemetry.inAttemptTestRuns ?? 0) >= tests.maxRuns) return false;
  const outcome = await runTestsTool.run({}, context);
  record(`taskloop ran the tests on the change: ${outcome.reply}`);
  return context.lastTestRun?.passed === true;
}
