// The skill writer's answer: JSON { whenItApplies, whatToDo }, optionally inside a ```json fence.
import { z } from 'zod';

export const skillDraftSchema = z.strictObject({
  whenItApplies: z.string().trim().min(1).max(2000),
  whatToDo: z.string().trim().min(1).max(8000),
});
export type SkillDraft = z.infer<typeof skillDraftSchema>;

export type ParseSkillDraftResult = { success: true; data: SkillDraft } | { success: false; error: string };

const expected = 'reply with a JSON object {"whenItApplies": "<when the skill applies>", "whatToDo": "<what to do>"}';

/** Reads the skill writer's reply; the error says what was wrong and the expected shape. */
export function parseSkillDraft(content: string): ParseSkillDraftResult {
  const fenced = /```(?:json)?\s*\n([\s\S]*?)\n\s*```/.exec(content);
  const text = (fenced ? fenced[1]! : content).trim();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return {
      success: false,
      error: `skill writer reply is not JSON (starts ${JSON.stringify(text.slice(0, 60))}); ${expected}`,
    };
  }
  const parsed = skillDraftSchema.safeParse(json);
  if (parsed.success) return parsed;
  const issue = parsed.error.issues[0]!;
  return {
    success: false,
    error: `skill writer reply field ${issue.path.join('.') || '(top level)'}: ${issue.message}; ${expected}`,
  };
}
