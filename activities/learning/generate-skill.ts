// The skill-generation activity: asks the skill writer for a draft and returns the skill with its provenance, merged
// with the one the project already learned under its id; the learning workflow keeps it. Without a usable model (none set,
// a scripted file with no skill-writer turn, a failing call) the skill is distilled from the failures instead, marked
// as such; a model-written skill replaces a distilled one, never the reverse. A file is written as a mirror for humans.
import { ApplicationFailure } from '@temporalio/common';
import { distillSkill } from '../../domain/learning/distill-skill.js';
import type { FailureEvent } from '../../domain/learning/failure-event.js';
import { parseSkillDraft, type SkillDraft } from '../../domain/learning/skill-draft.js';
import { mergeSkill } from '../../domain/learning/project-learning.js';
import { skillId, type Skill } from '../../domain/learning/skills.js';
import { loadAgent } from '../models/agent-registry.js';
import { createModelProvider } from '../models/router.js';
import { defaultSkillsDir } from './report-failure.js';
import { buildSkillPrompt } from './skill-prompt.js';
import { writeSkillFile } from './skill-files.js';

export interface GenerateSkillInput {
  /** The project: the mirror file goes to `<workDir>/skills/<project>` of the host running this activity. */
  project: string;
  /** The skill writer's model; absent: the skill is distilled without a model. */
  modelSpec?: string;
  /** The skill writer's scripted turn to use (calls made before this one). */
  startTurn: number;
  pattern: string;
  /** The description that started the group; with the pattern it fixes the skill id. */
  description: string;
  failures: FailureEvent[];
  sourceWorkflowIds: string[];
  sourceTaskIds?: string[];
  /** Hosts whose failures are in the group. */
  hosts?: string[];
  /** The skill the project learned under this id, if any: its provenance is kept, and its model-written text. */
  existing?: Skill;
}

export interface GeneratedSkill {
  /** The skill to keep among what the project learned. */
  skill: Skill;
  id: string;
  /** The mirror file on the host that ran this activity. */
  path: string;
  pattern: string;
  /** All workflows the skill was distilled from (earlier ones kept when the project had learned it). */
  sourceWorkflowIds: string[];
  /** Who wrote the stored text: the model, or the deterministic distiller (with why no model wrote it). */
  writtenBy?: 'model' | 'distilled';
  distilledBecause?: string;
}

export interface GenerateSkillDeps {
  /** Where relative `scripted:` model files resolve. */
  cwd: string;
  /** The host's work folder, where the mirror goes. */
  workDir: string;
  now?: () => Date;
}

type Draft = { draft: SkillDraft; writtenBy: 'model' } | { draft: SkillDraft; writtenBy: 'distilled'; because: string };

async function askModel(
  input: GenerateSkillInput & { modelSpec: string },
  deps: GenerateSkillDeps,
): Promise<SkillDraft> {
  // The skill writer's version in the registry sets its output limit and temperature, as every role's does.
  const { agent } = await loadAgent('skillWriter');
  const provider = await createModelProvider(input.modelSpec, {
    role: 'skillWriter',
    startTurn: input.startTurn,
    cwd: deps.cwd,
    parameters: agent.parameters,
  });
  const turn = await provider.complete({ role: 'skillWriter', messages: buildSkillPrompt(input), tools: [] });
  const draft = parseSkillDraft(turn.content);
  if (!draft.success)
    throw ApplicationFailure.create({ type: 'MalformedSkill', message: `${draft.error} (model ${input.modelSpec})` });
  return draft.data;
}

async function draftSkill(input: GenerateSkillInput, deps: GenerateSkillDeps): Promise<Draft> {
  if (input.modelSpec === undefined)
    return { draft: distillSkill(input), writtenBy: 'distilled', because: 'no skill-writer model is set' };
  try {
    return { draft: await askModel({ ...input, modelSpec: input.modelSpec }, deps), writtenBy: 'model' };
  } catch (error) {
    // The group is cleared after this call: a distilled skill now beats no skill; a model-written one replaces it later.
    return {
      draft: distillSkill(input),
      writtenBy: 'distilled',
      because: `the skill writer ${input.modelSpec} gave no usable skill (${error instanceof Error ? error.message : String(error)})`,
    };
  }
}

/**
 * The skill for the group. Its id comes from the pattern and the group's description, not from the model's words, so
 * a retry (or the same pattern recurring, on any host) updates the same skill and merges provenance, never a duplicate.
 */
export async function generateSkill(input: GenerateSkillInput, deps: GenerateSkillDeps): Promise<GeneratedSkill> {
  const drafted = await draftSkill(input, deps);
  const skill = mergeSkill(input.existing, {
    id: skillId(input.pattern, input.description),
    pattern: input.pattern,
    draft: drafted.draft,
    writtenBy: drafted.writtenBy,
    provenance: {
      sourceWorkflowIds: input.sourceWorkflowIds,
      sourceTaskIds: input.sourceTaskIds ?? [],
      hosts: input.hosts ?? [],
    },
    now: (deps.now ?? (() => new Date()))().toISOString(),
  });
  const file = await writeSkillFile(defaultSkillsDir(deps.workDir, input.project), skill);
  return {
    skill,
    id: skill.id,
    path: file,
    pattern: skill.pattern,
    sourceWorkflowIds: skill.sourceWorkflowIds,
    ...(skill.writtenBy === undefined ? {} : { writtenBy: skill.writtenBy }),
    ...(drafted.writtenBy === 'distilled' ? { distilledBecause: drafted.because } : {}),
  };
}
