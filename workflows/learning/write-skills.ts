// Turns every group of similar failures that reached the threshold into a skill (model-written, or distilled without
// a model); a failure is recorded, never thrown.
import { ActivityFailure, ApplicationFailure, log } from '@temporalio/workflow';
import {
  describeGroupPattern,
  recordSkillError,
  recordSkillWritten,
  type BufferedFailureEvent,
  type LearningState,
} from '../../domain/learning/learning-state.js';
import { storeSkill } from '../../domain/learning/project-learning.js';
import { groupFailures, type FailureGroup } from '../../domain/learning/similarity.js';
import { skillId } from '../../domain/learning/skills.js';
import type { GeneratedSkill } from '../../activities/learning/index.js';
import { generateSkill } from './proxies.js';

export interface SkillWriting {
  project: string;
  skillWriterModel?: string;
  threshold: number;
  minCount: number;
}

/** Runs the skill writer for each ready group, one after another, and updates the state with the result. */
export async function writeReadySkills(state: LearningState, options: SkillWriting): Promise<void> {
  for (const group of groupFailures(state.buffer, options.threshold, options.minCount)) {
    await writeSkill(state, group, options);
  }
}

async function writeSkill(
  state: LearningState,
  group: FailureGroup<BufferedFailureEvent>,
  options: SkillWriting,
): Promise<void> {
  const pattern = describeGroupPattern(group);
  const startTurn = state.skillWriterCalls++;
  const existing = state.learned.skills.find((skill) => skill.id === skillId(pattern, group.description));
  const hosts = group.failures.map((failure) => failure.host).filter((host): host is string => host !== undefined);
  try {
    const { skill, ...written }: Partial<GeneratedSkill> & Omit<GeneratedSkill, 'skill'> = await generateSkill({
      project: options.project,
      ...(options.skillWriterModel === undefined ? {} : { modelSpec: options.skillWriterModel }),
      startTurn,
      pattern,
      description: group.description,
      failures: group.failures.map(({ id: _id, ...failure }) => failure),
      sourceWorkflowIds: group.workflowIds,
      sourceTaskIds: [...new Set(group.failures.map((failure) => failure.taskId))],
      hosts: [...new Set(hosts)],
      ...(existing === undefined ? {} : { existing }),
    });
    // The workflow's state is the source of truth; the activity's file is only a mirror for humans on the host that
    // wrote it. A result recorded before the skills moved here (replayed history) carries no skill.
    if (skill) storeSkill(state.learned, skill);
    recordSkillWritten(state, group, { ...written, hosts: skill?.hosts ?? [] }, new Date().toISOString());
    log.info('skill written', {
      id: written.id,
      mirror: written.path,
      writtenBy: written.writtenBy,
      sourceWorkflowIds: written.sourceWorkflowIds,
      hosts: skill?.hosts,
    });
  } catch (error) {
    const message = `skill generation for pattern ${pattern} failed: ${describeError(error)}`;
    log.warn(message, { sourceWorkflowIds: group.workflowIds });
    recordSkillError(state, group, message, new Date().toISOString());
  }
}

function describeError(error: unknown): string {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof ApplicationFailure && cause.type) return `${cause.type}: ${cause.message}`;
  return cause instanceof Error ? cause.message : String(error);
}
