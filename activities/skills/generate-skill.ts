// The skill-generation activity: asks the skill writer for a draft, then writes the skill file with its provenance.
// Without a usable model (none set, a scripted file with no skill-writer turn, a failing call) the skill is distilled
// from the failures instead, marked as such; a model-written skill replaces a distilled one, never the reverse.
import { ApplicationFailure } from '@temporalio/common';
import { distillSkill } from '../../domain/learning/reflection/distill-skill.js';
import type { FailureEvent } from '../../domain/learning/reflection/failure-event.js';
import { parseSkillDraft, type SkillDraft } from '../../domain/learning/reflection/skill-draft.js';
import { skillId, type Skill } from '../../domain/learning/skills.js';
import { createModelProvider } from '../models/router.js';
import { buildSkillPrompt } from './skill-prompt.js';
import { readStoredSkill, writeSkillFile } from './store.js';

export interface GenerateSkillInput {
  skillsDir: string;
  /** The skill writer's model; absent: the skill is distilled without a model. */
  modelSpec?: string;
  /** The skill writer's scripted turn to use (calls made before this one). */
  startTurn: number;
  pattern: string;
  /** The description that started the group; with the pattern it fixes the skill id. */
  description: string;
  failures: FailureEvent[];
  sourceWorkflowIds: string[];
}

export interface GeneratedSkill {
  id: string;
  path: string;
  pattern: string;
  /** All workflows the stored skill was distilled from (earlier ones kept when the file existed). */
  sourceWorkflowIds: string[];
  /** Who wrote the stored text: the model, or the deterministic distiller (with why no model wrote it). */
  writtenBy?: 'model' | 'distilled';
  distilledBecause?: string;
}

export interface GenerateSkillDeps {
  /** Where relative `scripted:` model files resolve. */
  cwd: string;
  now?: () => Date;
}

type Draft = { draft: SkillDraft; writtenBy: 'model' } | { draft: SkillDraft; writtenBy: 'distilled'; because: string };

async function askModel(
  input: GenerateSkillInput & { modelSpec: string },
  deps: GenerateSkillDeps,
): Promise<SkillDraft> {
  const provider = await createModelProvider(input.modelSpec, {
    role: 'skillWriter',
    startTurn: input.startTurn,
    cwd: deps.cwd,
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
 * Writes `<skillsDir>/<id>.md`. The id comes from the pattern and the group's description, not from the model's
 * words, so a retry (or the same pattern recurring) rewrites the same file and merges provenance, never a duplicate.
 */
export async function generateSkill(input: GenerateSkillInput, deps: GenerateSkillDeps): Promise<GeneratedSkill> {
  const drafted = await draftSkill(input, deps);
  const id = skillId(input.pattern, input.description);
  const existing = await readStoredSkill(input.skillsDir, id);
  const sourceWorkflowIds = [...new Set([...(existing?.sourceWorkflowIds ?? []), ...input.sourceWorkflowIds])];
  // A distilled draft never overwrites a model's words: it only adds provenance.
  const keepExisting =
    existing !== undefined && drafted.writtenBy === 'distilled' && existing.writtenBy !== 'distilled';
  const text = keepExisting
    ? { whenItApplies: existing.whenItApplies, whatToDo: existing.whatToDo, writtenBy: existing.writtenBy }
    : { ...drafted.draft, writtenBy: drafted.writtenBy };
  const skill: Skill = {
    id,
    pattern: input.pattern,
    whenItApplies: text.whenItApplies,
    whatToDo: text.whatToDo,
    sourceWorkflowIds,
    createdAt: existing?.createdAt ?? (deps.now ?? (() => new Date()))().toISOString(),
    ...(text.writtenBy === undefined ? {} : { writtenBy: text.writtenBy }),
  };
  const file = await writeSkillFile(input.skillsDir, skill);
  return {
    id,
    path: file,
    pattern: skill.pattern,
    sourceWorkflowIds,
    ...(skill.writtenBy === undefined ? {} : { writtenBy: skill.writtenBy }),
    ...(drafted.writtenBy === 'distilled' ? { distilledBecause: drafted.because } : {}),
  };
}
