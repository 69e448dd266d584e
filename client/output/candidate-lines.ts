// What a task that draws samples shows of each attempt's candidates (domain/samples.ts): each one set aside, why, and
// what it cost, so a reader sees what the kept change was chosen from and what the draws spent.
import type { AttemptRecord } from '../../domain/task-state.js';
import { coderTelemetryOf } from '../../domain/task-state.js';

/** One line per candidate set aside, and which candidate the attempt kept (or drew last, when none passed). */
export function candidateLines(attempts: readonly AttemptRecord[]): string[] {
  return attempts.flatMap(({ attempt, candidates, candidate, status }) => {
    if (!candidates?.length) return [];
    const lines = candidates.map((lost) => {
      const spent = coderTelemetryOf(lost);
      const tokens = spent
        ? `, ${spent.modelRequests} model requests, ${spent.inputTokens + spent.outputTokens} tokens`
        : '';
      const seconds = (Date.parse(lost.endedAt) - Date.parse(lost.startedAt)) / 1000;
      const took = Number.isFinite(seconds) ? `, ${Math.round(seconds)} s` : '';
      const counts = lost.test
        ? ` (${lost.test.counts.failed + lost.test.counts.errors} of ${lost.test.counts.total} tests failing)`
        : '';
      return `attempt ${attempt}: candidate ${lost.candidate} set aside at ${lost.failure.node}${counts}${tokens}${took}: ${clipReason(lost.failure.reason)}`;
    });
    // The last draw's own failure is the attempt's (its row above), so it is not repeated here.
    const ended = status === 'PASSED' ? 'kept' : "failed too, the last drawn: its failure is the attempt's";
    return [...lines, `attempt ${attempt}: candidate ${candidate ?? 1} ${ended}`];
  });
}

const clipReason = (reason: string) => (reason.length > 100 ? `${reason.slice(0, 99)}…` : reason);
