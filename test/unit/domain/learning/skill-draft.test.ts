import { describe, expect, it } from 'vitest';
import { parseSkillDraft } from '../../../../domain/learning/skill-draft.js';

describe('parseSkillDraft', () => {
  it('reads a plain JSON reply and trims its texts', () => {
    expect(parseSkillDraft('{"whenItApplies": " cache keys ", "whatToDo": "read fetcher.py"}')).toEqual({
      success: true,
      data: { whenItApplies: 'cache keys', whatToDo: 'read fetcher.py' },
    });
  });

  it('reads JSON inside a ```json fence with prose around it', () => {
    const reply = 'Here it is:\n```json\n{"whenItApplies": "a", "whatToDo": "b"}\n```\nDone.';
    expect(parseSkillDraft(reply)).toEqual({ success: true, data: { whenItApplies: 'a', whatToDo: 'b' } });
  });

  it('refuses prose that is not JSON and shows the expected shape', () => {
    const parsed = parseSkillDraft('Be careful with imports.');
    expect(!parsed.success && parsed.error).toMatch(
      /not JSON \(starts "Be careful.*reply with a JSON object \{"whenItApplies"/,
    );
  });

  it('refuses an empty field, naming it', () => {
    const parsed = parseSkillDraft('{"whenItApplies": "a", "whatToDo": "  "}');
    expect(!parsed.success && parsed.error).toContain('field whatToDo');
  });

  it('refuses unknown keys so a misspelt field is not silently dropped', () => {
    const parsed = parseSkillDraft('{"whenItApplies": "a", "whatToDo": "b", "what_to_do": "c"}');
    expect(parsed.success).toBe(false);
  });
});
