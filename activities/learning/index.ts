// Activities of learning across tasks: the project's failure history beside the repository.
import { localRepoPath } from '../git/repo-cache.js';
import { appendTaskHistory, loadTaskHistory, type TaskHistoryRecord } from './task-history.js';

/** `workDir`: where a repository by URL has this host's clone, whose git folder holds the history. */
export function createLearningActivities(deps: { workDir: string } = { workDir: '.' }) {
  return {
    async recordTaskHistory(input: { repoPath: string; record: TaskHistoryRecord }): Promise<void> {
      await appendTaskHistory(localRepoPath(input.repoPath, deps.workDir), input.record);
    },
    async loadTaskHistory(input: { repoPath: string; project: string; taskId: string }) {
      return loadTaskHistory(localRepoPath(input.repoPath, deps.workDir), input.project, input.taskId);
    },
  };
}
