// Skills: short markdown notes distilled from recurring failures, offered to later attempts.
import { parse, stringify } from 'yaml';
import { z } from 'zod';
import { shortHash } from './sha256.js';
import { wordOverlap } from './similarity.js';

export const skillSchema = z.object({
  id: z.string().min(1),
  /** The failure pattern type the skill answers, e.g. `cross_dep`. */
  pattern: z.string().min(1),
  whenItApplies: z.string().min(1),
  whatToDo: z.string().min(1),
  /** Workflows whose failures the skill was distilled from. */
  sourceWorkflowIds: z.array(z.string()),
  /** Tasks whose failures the skill was distilled from (learned once for every host). */
  sourceTaskIds: z.array(z.string()).optional(),
  /** Hosts whose failures the skill was distilled from. */
  hosts: z.array(z.string()).optional(),
  createdAt: z.string().min(1),
  /** `model`: written by the skill-writer model; `distilled`: made without a model from the failures (replaced later). */
  writtenBy: z.enum(['model', 'distilled']).optional(),
});
export type Skill = z.infer<typeof skillSchema>;

export type ParseSkillResult = { success: true; data: Skill } | { success: false; error: string };

const whenHeading = '## When it applies';
const whatHeading = '## What to do';

/** A stable id for a skill: the first 12 hex of sha256 of `pattern\n<whitespace-collapsed trigger>`. */
export function skillId(pattern: string, whenItApplies: string): string {
  return shortHash(`${pattern}\n${collapse(whenItApplies)}`);
}

/** Markdown with front matter (id, pattern, applies_when, source_workflows, created_at) and two sections. */
export function renderSkill(skill: Skill): string {
  return [
    '---',
    formatFrontMatter({
      id: skill.id,
      pattern: skill.pattern,
      applies_when: collapse(skill.whenItApplies),
      source_workflows: skill.sourceWorkflowIds,
      ...(skill.sourceTaskIds === undefined ? {} : { source_tasks: skill.sourceTaskIds }),
      ...(skill.hosts === undefined ? {} : { hosts: skill.hosts }),
      created_at: skill.createdAt,
      ...(skill.writtenBy === undefined ? {} : { written_by: skill.writtenBy }),
    }),
    '---',
    '',
    whenHeading,
    '',
    skill.whenItApplies.trim(),
    '',
    whatHeading,
    '',
    skill.whatToDo.trim(),
    '',
  ].join('\n');
}

/** Reads a skill written by `renderSkill` (or by hand in the same shape). */
export function parseSkill(text: string): ParseSkillResult {
  const normalized = text.replace(/\r\n/g, '\n');
  const front = /^---\n([\s\S]*?)\n---\n/.exec(normalized);
  if (front === null)
    return fail('front matter: expected the text to start with a `---` block closed by `---`; add it');
  const fields = readFrontMatter(front[1]!);
  if (!fields.success) return fields;
  const body = normalized.slice(front[0].length);
  const whenAt = body.indexOf(`${whenHeading}\n`);
  const whatAt = body.indexOf(`\n${whatHeading}\n`, Math.max(whenAt, 0));
  if (whenAt < 0 || whatAt < 0) {
    return fail(`body: expected the sections "${whenHeading}" then "${whatHeading}"; add the missing heading`);
  }
  const candidate = {
    id: fields.data.id,
    pattern: fields.data.pattern,
    whenItApplies: body.slice(whenAt + whenHeading.length, whatAt).trim() || fields.data.applies_when,
    whatToDo: body.slice(whatAt + whatHeading.length + 2).trim(),
    sourceWorkflowIds: fields.data.source_workflows,
    ...(fields.data.source_tasks === undefined ? {} : { sourceTaskIds: fields.data.source_tasks }),
    ...(fields.data.hosts === undefined ? {} : { hosts: fields.data.hosts }),
    createdAt: fields.data.created_at,
    ...(fields.data.written_by === undefined ? {} : { writtenBy: fields.data.written_by }),
  };
  const parsed = skillSchema.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return fail(`${issue.path.join('.')}: ${issue.message}`);
  }
  return { success: true, data: parsed.data };
}

/** Skills whose trigger text is similar to the task description, best match first. */
export function matchSkills(skills: readonly Skill[], taskDescription: string, threshold = 0.5): Skill[] {
  return skills
    .map((skill) => ({ skill, overlap: wordOverlap(skill.whenItApplies, taskDescription) }))
    .filter((m) => m.overlap >= threshold)
    .sort((a, b) => b.overlap - a.overlap)
    .map((m) => m.skill);
}

const frontMatterSchema = z.object({
  id: z.string().min(1),
  pattern: z.string().min(1),
  applies_when: z.string(),
  source_workflows: z.array(z.string()),
  source_tasks: z.array(z.string()).optional(),
  hosts: z.array(z.string()).optional(),
  created_at: z.string().min(1),
  written_by: z.enum(['model', 'distilled']).optional(),
});

export type FrontMatter = z.infer<typeof frontMatterSchema>;

/** YAML of the front matter, one `key: value` a line (no folding), quoted wherever a plain scalar would mislead. */
export function formatFrontMatter(fields: FrontMatter): string {
  return stringify(fields, { lineWidth: 0 }).trimEnd();
}

/** Reads the front matter block as YAML; every scalar is read as a string (the failsafe schema), as the fields are. */
export function readFrontMatter(
  block: string,
): { success: true; data: FrontMatter } | { success: false; error: string } {
  let raw: unknown;
  try {
    raw = parse(block, { schema: 'failsafe', uniqueKeys: true });
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    return fail(
      `front matter: not valid YAML (${reason}); write each field as \`key: value\` and quote values with \`: \``,
    );
  }
  const parsed = frontMatterSchema.safeParse(raw ?? {});
  if (parsed.success) return parsed;
  const issue = parsed.error.issues[0]!;
  return fail(`front matter field ${issue.path.join('.') || '(the block)'}: ${issue.message}`);
}

const collapse = (text: string): string => text.trim().replace(/\s+/g, ' ');

const fail = (error: string): { success: false; error: string } => ({ success: false, error });
