// Activities of learning across tasks: the project's failure history beside the repository.
import { appendTaskHistory, loadTaskHistory, type TaskHistoryRecord } from './task-history.js';

export function createLearningActivities() {
  return {
    async recordTaskHistory(input: { repoPath: string; record: TaskHistoryRecord }): Promise<void> {
      await appendTaskHistory(input.repoPath, input.record);
    },
    async loadTaskHistory(input: { repoPath: string; project: string; taskId: string }) {
      return loadTaskHistory(input.repoPath, input.project, input.taskId);
    },
  };
}
