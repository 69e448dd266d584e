// The project report's review and landing lists as text: what landed, then what waits for whom and for how long.
import { waitText, type ReviewAndLanding } from '../../domain/project/review-and-landing.js';
import { formatTable } from './table.js';

const seconds = (iso: string) => iso.replace(/\.\d+Z$/, 'Z');

/** Nothing when no task landed or waits (a project without approval or landOn reads as before). */
export function formatReviewAndLanding({ landed, waiting }: ReviewAndLanding): string[] {
  const lines: string[] = [];
  if (landed.length > 0)
    lines.push(
      '',
      `landed: ${landed.length}`,
      formatTable(
        ['task', 'on', 'commit', 'at'],
        landed.map((change) => [change.taskId, change.target, change.commit.slice(0, 12), seconds(change.at)]),
      ),
    );
  if (waiting.length > 0)
    lines.push(
      '',
      `waiting: ${waiting.length}`,
      formatTable(
        ['task', 'waits for', 'what', 'since', 'for'],
        waiting.map((wait) => [wait.taskId, wait.waitsFor, wait.where, seconds(wait.since), waitText(wait.waitedMs)]),
      ),
      ...waiting.flatMap((wait) => (wait.answer ? [`answer ${wait.taskId}: ${wait.answer}`] : [])),
    );
  return lines;
}
