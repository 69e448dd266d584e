// finish: the model says it is done; its summary becomes the coder result's summary. Coached runs (coaching.ts)
// have a finish before any change refused once, with why: small models announced fixes they never made; and, where
// the version runs tests, a finish after an edit no passing run has checked (the 1.5B finished in the same reply as its
// failing run).
import { z } from 'zod';
import { defineTool } from './define-tool.js';
import type { ToolContext } from './types.js';

/** Why a finish after an edit no passing test run has checked is refused (once), or undefined when it may end. */
function untestedFinish(context: ToolContext): string | undefined {
  const tests = context.tests;
  if (!context.coaching?.refuseUntestedFinish || context.untestedFinishRefused || !tests) return undefined;
  if (context.changedFiles.size === 0 || (context.telemetry.inAttemptTestRuns ?? 0) >= tests.maxRuns) return undefined;
  const last = context.lastTestRun;
  if (last?.passed && last.mutationsBefore === context.telemetry.mutationOperations) return undefined;
  const cannotPass = ' If they cannot pass, call finish again and say why in the summary.';
  if (last !== undefined && last.mutationsBefore === context.telemetry.mutationOperations)
    return (
      `error: finish refused: the last test run after your edit did not pass (${last.summary}), so the change does ` +
      'not work yet. Fix the code so that the failing assertion holds, call run_tests, and finish when they pass.' +
      cannotPass
    );
  const state =
    last === undefined
      ? 'the tests have not run since you changed the code'
      : `you changed the code after the last test run (${last.summary})`;
  return (
    `error: finish refused: ${state}, so the change is not shown to work. Call run_tests now; finish when they pass ` +
    '(or fix the code first).' +
    cannotPass
  );
}

export const finishTool = defineTool({
  name: 'finish',
  capability: 'READ_REPOSITORY',
  description:
    'End your work once the change is complete; the summary says what you changed and why and is shown to the reviewer.',
  args: z.strictObject({ summary: z.string().trim().min(1).describe('What you changed and why, in a few sentences.') }),
  async run({ summary }, context) {
    if (context.coaching?.refuseEmptyFinish && context.changedFiles.size === 0 && !context.emptyFinishRefused) {
      context.emptyFinishRefused = true;
      return {
        reply:
          'error: finish refused: no file has been changed yet, so the goal is not done and the tests would fail as ' +
          'before. Make the change with replace_in_file (or write_file), then call finish. If the goal truly needs ' +
          'no change, call finish again and say why in the summary.',
      };
    }
    const untested = untestedFinish(context);
    if (untested !== undefined) {
      context.untestedFinishRefused = true;
      return { reply: untested };
    }
    return { reply: 'finished', finished: { summary } };
  },
});
