// The floor's activities: the plain script's own steps, nothing added, run by a plain runner (a small process of
// its own, as taskloop's commands run through its spawn helper: a spawn from the worker's large process pays its
// fork cost, 6 to 13 ms each here).
import type { PlainRunner } from '../overhead/plain-runner.js';
import type { PlainProject } from '../overhead/plain-run.js';

export interface FloorInput {
  project: PlainProject;
  worktree: string;
  taskId: string;
  hostQueue: string;
}

export function createFloorActivities(runner: PlainRunner) {
  const step =
    (name: 'addWorktree' | 'applyEdit' | 'testAndCommit') =>
    async (input: FloorInput): Promise<void> => {
      await runner.runStep(name, input.project, input.worktree, input.taskId);
    };
  return { addWorktree: step('addWorktree'), applyEdit: step('applyEdit'), testAndCommit: step('testAndCommit') };
}

export type FloorActivities = ReturnType<typeof createFloorActivities>;
