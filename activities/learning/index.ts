// Activities of learning across tasks: the mirror of the project's failure history beside the repository. The
// history itself lives in the project's memory in Temporal (every host sees the same) and is read with the claim.
import { localRepoPath } from '../git/repo-cache.js';
import { appendTaskHistory, type TaskHistoryRecord } from './task-history.js';

/** `workDir`: where a repository by URL has this host's clone, whose git folder holds the mirror. */
export function createLearningActivities(deps: { workDir: string } = { workDir: '.' }) {
  return {
    /** Writes the mirror `.git/taskloop/history.jsonl`; the memory itself is fed by the report to reflection. */
    async recordTaskHistory(input: { repoPath: string; record: TaskHistoryRecord }): Promise<void> {
      await appendTaskHistory(localRepoPath(input.repoPath, deps.workDir), input.record);
    },
  };
}
