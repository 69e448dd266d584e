// The attempt's commit message: the goal's first line as the subject, the coder's summary as the body. Made by the
// workflow for the commit activity and by the coder activity when it runs the test node (and its commit) itself.
export function commitMessage(goal: string, summary?: string): string {
  const subject = (goal.split('\n')[0] ?? '').trim().slice(0, 72);
  return summary?.trim() ? `${subject}\n\n${summary.trim()}` : subject;
}
