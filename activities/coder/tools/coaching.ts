// Refusals at the tool of what cannot help the task: an edit to a test file the task does not allow (the review would
// refuse the attempt for it afterwards), a finish before any change and a finish after an edit no passing test run has
// checked (each refused once, with why), and a test run that cannot tell anything new. They coach a model
// while it can still change course; scripted turns are a fixed sequence that cannot react, so a run of them is not
// coached (the review's rule still refuses their test edits).
import { isTestFile } from '../../../domain/paths.js';
import type { ToolContext } from './types.js';

export type { Coaching } from './types.js';

/** Why an edit of `relative` is refused, or undefined when it may go ahead. */
export function refusedTestEdit(context: ToolContext, relative: string): string | undefined {
  if (!context.coaching?.refuseTestEdits || !isTestFile(relative)) return undefined;
  context.telemetry.refusedToolCalls = (context.telemetry.refusedToolCalls ?? 0) + 1;
  return (
    `error: refused: ${relative} is a test file, and this task does not allow test edits (allowTestEdits is false); ` +
    'nothing was changed. The review would refuse the attempt for it: fix the code under test instead, so that the ' +
    'existing tests pass.'
  );
}
