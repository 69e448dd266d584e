// The skills activities (skill generation, failure reporting), built by a factory that takes the worker's dependencies.
import { heartbeatWhile } from '../heartbeat-while.js';
import { generateSkill, type GenerateSkillInput } from './generate-skill.js';
import { reportFailure, type ReportFailureInput } from './report-failure.js';

export { findSkillsFor, formatSkillsForPrompt, type OfferedSkill } from './load-skills.js';
export { skillFilePath, writeSkillFile } from './store.js';
export { defaultSkillsDir } from './report-failure.js';
export type { GenerateSkillInput, GeneratedSkill } from './generate-skill.js';
export type { ReportFailureInput } from './report-failure.js';

export interface SkillActivityDeps {
  workDir: string;
  /** Where relative `scripted:` model files resolve (default: the worker's working folder). */
  cwd?: string;
}

export function createSkillActivities(deps: SkillActivityDeps) {
  return {
    generateSkill: (input: GenerateSkillInput) =>
      heartbeatWhile(() => generateSkill(input, { cwd: deps.cwd ?? process.cwd(), workDir: deps.workDir })),
    reportFailure: (input: ReportFailureInput) => reportFailure(input),
  };
}

export type SkillActivities = ReturnType<typeof createSkillActivities>;
