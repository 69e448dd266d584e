// Activities of learning across tasks: the project's failure history, read from its memory in Temporal (every host
// sees the same), and mirrored for humans beside the repository.
import { historyForTask } from '../../domain/learning/memory.js';
import { localRepoPath } from '../git/repo-cache.js';
import { readProjectMemoryHere } from './project-memory.js';
import { appendTaskHistory, type TaskHistoryRecord } from './task-history.js';

/** `workDir`: where a repository by URL has this host's clone, whose git folder holds the mirror. */
export function createLearningActivities(deps: { workDir: string } = { workDir: '.' }) {
  return {
    /** Writes the mirror `.git/taskloop/history.jsonl`; the memory itself is fed by the report to reflection. */
    async recordTaskHistory(input: { repoPath: string; record: TaskHistoryRecord }): Promise<void> {
      await appendTaskHistory(localRepoPath(input.repoPath, deps.workDir), input.record);
    },
    /** Failures of the project's other tasks, one entry per task, from the project's memory. */
    async loadTaskHistory(input: { project: string; taskId: string }) {
      return historyForTask((await readProjectMemoryHere(input.project)).history, input.taskId);
    },
  };
}
