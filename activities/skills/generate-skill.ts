// The skill-generation activity: asks the skill writer for a draft, then writes the skill file with its provenance.
import { ApplicationFailure } from '@temporalio/common';
import type { FailureEvent } from '../../domain/learning/reflection/failure-event.js';
import { parseSkillDraft } from '../../domain/learning/reflection/skill-draft.js';
import { skillId, type Skill } from '../../domain/learning/skills.js';
import { createModelProvider } from '../models/router.js';
import { buildSkillPrompt } from './skill-prompt.js';
import { readStoredSkill, writeSkillFile } from './store.js';

export interface GenerateSkillInput {
  skillsDir: string;
  modelSpec: string;
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
}

export interface GenerateSkillDeps {
  /** Where relative `scripted:` model files resolve. */
  cwd: string;
  now?: () => Date;
}

/**
 * Writes `<skillsDir>/<id>.md`. The id comes from the pattern and the group's description, not from the model's
 * words, so a retry (or the same pattern recurring) rewrites the same file and merges provenance, never a duplicate.
 */
export async function generateSkill(input: GenerateSkillInput, deps: GenerateSkillDeps): Promise<GeneratedSkill> {
  const provider = await createModelProvider(input.modelSpec, { role: 'skillWriter', startTurn: input.startTurn, cwd: deps.cwd });
  const turn = await provider.complete({ role: 'skillWriter', messages: buildSkillPrompt(input), tools: [] });
  const draft = parseSkillDraft(turn.content);
  if (!draft.success) {
    // Retryable: another answer of a real model may be well formed.
    throw ApplicationFailure.create({ type: 'MalformedSkill', message: `${draft.error} (model ${input.modelSpec})` });
  }
  const id = skillId(input.pattern, input.description);
  const existing = await readStoredSkill(input.skillsDir, id);
  const skill: Skill = {
    id,
    pattern: input.pattern,
    whenItApplies: draft.data.whenItApplies,
    whatToDo: draft.data.whatToDo,
    sourceWorkflowIds: [...new Set([...(existing?.sourceWorkflowIds ?? []), ...input.sourceWorkflowIds])],
    createdAt: existing?.createdAt ?? (deps.now ?? (() => new Date()))().toISOString(),
  };
  const file = await writeSkillFile(input.skillsDir, skill);
  return { id, path: file, pattern: skill.pattern, sourceWorkflowIds: skill.sourceWorkflowIds };
}
