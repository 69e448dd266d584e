// The Web UI's view of a running task, as Markdown: the first line carries the taskloop status (which Temporal's own
// RUNNING hides), the phase and the attempt that phase belongs to; the last failure follows, short; the last line
// names the command that shows the task's trajectory. Current details live in the worker, not the history: changing
// their text changes no command, so recorded histories replay as they ran.
import { waitingRound } from '../../domain/approval.js';
import { describeCoderAgent, type TaskState } from '../../domain/task-state.js';

const REASON_CHARS = 300;

/** `phaseAttempt`: the attempt in which the phase was last set (-1 before any node ran in this run). */
export function describeRunDetails(state: TaskState, phaseAttempt: number): string {
  const { phase, status, attempt, lastFailure } = state;
  const pausing = status === 'PAUSE_REQUESTED' ? ` (pause requested, finishing ${phase})` : '';
  // An attempt is begun before its first node: until then the phase is still the previous attempt's.
  const current = state.attempts.at(-1);
  const next = current?.status === 'RUNNING' ? current.attempt : state.attempts.length + 1;
  // A task drawing samples names the candidate the phase belongs to (domain/samples.ts).
  const candidate = current?.candidate ? `, candidate ${current.candidate}` : '';
  const where =
    phaseAttempt === attempt && attempt > 0
      ? `phase \`${phase}\`, attempt ${attempt}${candidate}`
      : phaseAttempt > 0
        ? `attempt ${next} not started yet (attempt ${phaseAttempt} ended in \`${phase}\`)`
        : `attempt ${next} not started yet`;
  const failure =
    lastFailure && status !== 'COMPLETED'
      ? `\n\n**Last failure** (${lastFailure.node}, ${lastFailure.failureClass}): ${shorten(lastFailure.reason)}`
      : '';
  const coder = state.coderAgent ? `\n\n**Coder**: ${describeCoderAgent(state.coderAgent, state.attempts)}` : '';
  return `**${status}**${pausing}: ${where}${coder}${failure}${describeApprovalWait(state)}\n\n${describeTrajectoryLink(state.workflowId)}`;
}

/** While a change awaits approval: which round, where the change is, until when, and the commands that answer. */
function describeApprovalWait(state: TaskState): string {
  const round = state.status === 'AWAITING_APPROVAL' ? waitingRound(state.review) : undefined;
  if (!round) return '';
  const id = state.workflowId;
  return [
    `\n\n**Awaiting approval** of round ${round.round}: commit \`${round.sha.slice(0, 12)}\` on \`${round.branch}\`, waiting since ${round.waitingSince}, until ${round.timeoutAt}.`,
    `Answer with \`taskloop review\`, or \`taskloop approve ${id}\`, \`taskloop request-changes ${id} --comment "…"\`, \`taskloop reject ${id} --reason "…"\` (docs/review-and-land.md).`,
  ].join('\n\n');
}

/** Where a person sees what the model did: `taskloop show` (docs/trajectories.md), as text or as a page. */
export function describeTrajectoryLink(workflowId: string): string {
  return `**Trajectory**: \`taskloop show ${workflowId}\` (turns, tool calls, diffs, verdicts), or \`taskloop show ${workflowId} --html trajectory.html\` for a page`;
}

/** The first line of a reason, cut at a word near `limit`; "…" says something was left out. */
export function shorten(reason: string, limit = REASON_CHARS): string {
  const line = reason.split('\n')[0] ?? '';
  if (line.length <= limit) return line === reason ? line : `${line}…`;
  const space = line.lastIndexOf(' ', limit);
  return `${line.slice(0, space > limit / 2 ? space : limit)}…`;
}
