import { describe, expect, it } from 'vitest';
import { skillExcerpt } from '../../../../client/demo/show-learning.js';
import { distillSkill } from '../../../../domain/learning/distill-skill.js';
import { countOf } from '../../../../client/output/plural.js';

const failure = (reason: string) => ({
  workflowId: 'task-demo-fix-mean',
  taskId: 'fix-mean',
  attempt: 1,
  description: 'fix mean',
  failureClass: 'code_defect' as const,
  pattern: 'assertion_error',
  reason,
  evidence: '',
  files: [],
});

describe("the demo's skill lines", () => {
  it('show the evidence under its heading, never the heading alone', () => {
    const skill = distillSkill({
      pattern: 'assertion_error',
      description: 'fix mean',
      failures: [failure('assert mean([1, 2]) == 1.5'), failure('assert mean([]) == 0')],
    });
    const lines = skillExcerpt(skill.whatToDo);
    const heading = lines.indexOf('Evidence from those failures:');
    expect(heading).toBeGreaterThan(0);
    expect(lines[heading + 1]).toMatch(/^- /);
    expect(lines).not.toContain('');
    expect(lines.at(-1)?.endsWith(':')).toBe(false);
  });

  it('drops a heading whose items were cut off, and a skill without evidence has no such heading', () => {
    expect(skillExcerpt('Do this.\n\nEvidence from those failures:\n- a\n- b', 2)).toEqual(['Do this.']);
    const bare = distillSkill({ pattern: 'assertion_error', description: 'x', failures: [failure('')] });
    expect(bare.whatToDo).not.toContain('Evidence from those failures:');
  });

  it('counts in words', () => {
    expect(countOf(1, 'task')).toBe('1 task');
    expect(countOf(2, 'task')).toBe('2 tasks');
  });
});
