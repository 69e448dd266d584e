// The learning activities, built by a factory that takes the worker's dependencies: the failure report that feeds the
// project's learning workflow, the skill writer it calls, and the mirror of the failure history beside the
// repository. What the project learned lives in that workflow (every host sees the same) and is read with the claim.
import { localRepoPath } from '../git/repo-cache.js';
import { heartbeatWhile } from '../heartbeat-while.js';
import { generateSkill, type GenerateSkillInput } from './generate-skill.js';
import { reportFailure, type ReportFailureInput } from './report-failure.js';
import { appendTaskHistory, type TaskHistoryRecord } from './task-history.js';

export { findSkillsFor, formatSkillsForPrompt, type OfferedSkill } from './load-skills.js';
export { skillFilePath, writeSkillFile } from './skill-files.js';
export { defaultSkillsDir } from './report-failure.js';
export type { GenerateSkillInput, GeneratedSkill } from './generate-skill.js';
export type { ReportFailureInput } from './report-failure.js';

export interface LearningActivityDeps {
  /** The host's work folder: skill mirrors go under it, and a repository by URL has this host's clone there. */
  workDir: string;
  /** Where relative `scripted:` model files resolve (default: the worker's working folder). */
  cwd?: string;
}

export function createLearningActivities(deps: LearningActivityDeps) {
  return {
    generateSkill: (input: GenerateSkillInput) =>
      heartbeatWhile(() => generateSkill(input, { cwd: deps.cwd ?? process.cwd(), workDir: deps.workDir })),
    reportFailure: (input: ReportFailureInput) => reportFailure(input),
    /** Writes the mirror `.git/taskloop/history.jsonl`; the learned history itself is fed by reportFailure. */
    async recordTaskHistory(input: { repoPath: string; record: TaskHistoryRecord }): Promise<void> {
      await appendTaskHistory(localRepoPath(input.repoPath, deps.workDir), input.record);
    },
  };
}

export type LearningActivities = ReturnType<typeof createLearningActivities>;
