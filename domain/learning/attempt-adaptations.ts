// What the next attempt adapts, from this task's earlier attempts and the project's history: the inputs that
// chooseAdaptations needs, read off the attempt records the workflow already holds.
import type { TaskState } from '../task-state.js';
import { chooseAdaptations, type Adaptation, type HistoryEntry } from './adaptations.js';

/**
 * Files a task is about: those its attempts changed, plus Python paths and `module.name` references in its goal
 * (`calc.mean` -> calc.py), so a task that has not run yet can still be matched with similar earlier tasks.
 */
export function taskFilesOf(goal: string, attempts: TaskState['attempts']): string[] {
  const files = new Set<string>();
  for (const record of attempts) for (const file of record.coder?.changedFiles ?? []) files.add(file);
  for (const match of goal.matchAll(/[\w./-]+\.py\b/g)) files.add(match[0]);
  for (const match of goal.matchAll(/\b([a-z_][a-z0-9_]*)\.[a-z_][a-z0-9_]*\b/gi)) {
    if (!/\.py$/i.test(match[0])) files.add(`${match[1]}.py`);
  }
  return [...files].sort();
}

/**
 * The task-shape rules (dependencies, tests available, body coverage) need measurements the loop does not take yet,
 * so they get neutral values here; the pattern rules (own attempts and similar tasks) decide.
 */
export function planAdaptations(input: {
  goal: string;
  attempts: TaskState['attempts'];
  history: HistoryEntry[];
}): Adaptation[] {
  return chooseAdaptations({
    ownPatterns: input.attempts.map((record) => record.test?.patterns ?? []),
    history: input.history,
    taskFiles: taskFilesOf(input.goal, input.attempts),
    dependencyCount: 0,
    testsAvailable: Number.MAX_SAFE_INTEGER,
    functionBodyCoverage: 1,
  });
}
