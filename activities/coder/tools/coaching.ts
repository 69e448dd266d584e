// Refusals at the tool of what cannot help the task: an edit to a test file the task does not allow (the review would
// refuse the attempt for it afterwards), a finish before any change and a finish after an edit no passing test run has
// checked (each refused once, with why), and a test run that cannot tell anything new. They coach a model
// while it can still change course; scripted turns are a fixed sequence that cannot react, so a run of them is not
// coached (the review's rule still refuses their test edits).
import { isTestFile } from '../../../domain/paths.js';
import type { ToolContext } from './types.js';

/** What the tools refuse for a run (absent: nothing). */
export interface Coaching {
  /** Test files may not be changed: the task's `allowTestEdits` is false. */
  refuseTestEdits: boolean;
  /** `finish` before any file was changed is refused once. */
  refuseEmptyFinish: boolean;
  /**
   * `finish` after an edit no passing test run has checked is refused once (set by the coder loop for a version that
   * lists its tools with run_tests among them, such as coder-small, when the task has a test command).
   */
  refuseUntestedFinish?: boolean;
  /**
   * run_tests is refused (without spending a run) when nothing changed since a failing run of the same tests: it would
   * fail the same way. Set with refuseUntestedFinish; the 1.5B re-ran a failing test three times instead of editing.
   */
  refuseRepeatedTestRun?: boolean;
}

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
