// The attempt's commit message, built once: the goal's first line as the subject, the coder's summary as the body, and
// the run trailer `Taskloop-Run: <workflowId>/<attempt>` by which a retried commit activity finds its own commit.

/** Which workflow attempt a commit belongs to. */
export interface CommitRun {
  workflowId: string;
  attempt: number;
}

/** The trailer line that marks the commit of one workflow attempt. */
export function runTrailer(run: CommitRun): string {
  return `Taskloop-Run: ${run.workflowId}/${run.attempt}`;
}

/** The whole message of the attempt's commit. */
export function commitMessage(input: CommitRun & { goal: string; summary?: string }): string {
  const subject = (input.goal.split('\n')[0] ?? '').trim().slice(0, 72);
  const body = input.summary?.trim();
  return withRunTrailer(body ? `${subject}\n\n${body}` : subject, input);
}

/**
 * `message` ending with the run's trailer, added when missing (a commit input from a workflow that left the trailer to
 * the activity); an empty message gets a subject naming the run.
 */
export function withRunTrailer(message: string, run: CommitRun): string {
  const trailer = runTrailer(run);
  const text = message.trim() || `taskloop: ${run.workflowId} attempt ${run.attempt}`;
  if (text.split('\n').some((line) => line.trim() === trailer)) return `${text}\n`;
  return `${text}\n\n${trailer}\n`;
}
