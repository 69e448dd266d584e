import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { matchSkills, parseSkill, renderSkill, skillId } from '../../../../domain/learning/skills.js';
import type { Skill } from '../../../../domain/learning/skills.js';

const skill: Skill = {
  id: skillId('cross_dep', 'Tasks that import names from calc modules'),
  pattern: 'cross_dep',
  whenItApplies: 'Tasks that import names from calc modules',
  whatToDo:
    'Check `calc/__init__.py` exports the name first.\n\n- add it to `__all__`\n- re-run the import: it must succeed',
  sourceWorkflowIds: ['task-demo-1', 'task-demo-2'],
  createdAt: '2025-01-02T03:04:05.000Z',
};

describe('renderSkill', () => {
  it('writes the provenance from the shared memory (source tasks, hosts) as YAML lists that read back', () => {
    const shared = { ...skill, sourceTaskIds: ['1', '2'], hosts: ['host-a', 'host-b'], writtenBy: 'model' as const };
    const text = renderSkill(shared);
    expect(text).toContain('source_tasks:\n  - "1"\n  - "2"\nhosts:\n  - host-a\n  - host-b\n');
    expect(parseSkill(text)).toEqual({ success: true, data: shared });
    expect(parseYaml(text.split('---')[1] ?? '')).toMatchObject({ hosts: ['host-a', 'host-b'] });
  });

  it('writes front matter then the two sections', () => {
    expect(renderSkill(skill)).toBe(
      [
        '---',
        `id: ${skill.id}`,
        'pattern: cross_dep',
        'applies_when: Tasks that import names from calc modules',
        'source_workflows:',
        '  - task-demo-1',
        '  - task-demo-2',
        'created_at: 2025-01-02T03:04:05.000Z',
        '---',
        '',
        '## When it applies',
        '',
        'Tasks that import names from calc modules',
        '',
        '## What to do',
        '',
        skill.whatToDo,
        '',
      ].join('\n'),
    );
  });

  it('writes front matter that a YAML parser reads to the same values, even with awkward text', () => {
    const awkward = {
      ...skill,
      whenItApplies: 'When: "quotes", #hashes\nand  new lines',
      sourceWorkflowIds: ['true', '- dash'],
      createdAt: '2025',
    };
    const front = renderSkill(awkward).split('---\n')[1]!;
    expect(parseYaml(front)).toEqual({
      id: skill.id,
      pattern: 'cross_dep',
      applies_when: 'When: "quotes", #hashes and new lines',
      source_workflows: ['true', '- dash'],
      created_at: '2025',
    });
  });
});

describe('parseSkill', () => {
  it('reads back what renderSkill wrote', () => {
    expect(parseSkill(renderSkill(skill))).toEqual({ success: true, data: skill });
  });

  it('round-trips awkward values, an empty provenance list and CRLF line endings', () => {
    const awkward = {
      ...skill,
      pattern: 'x: y',
      whenItApplies: 'a\nb: "c" # d',
      sourceWorkflowIds: [],
      createdAt: '2025-01-01',
    };
    expect(parseSkill(renderSkill(awkward))).toEqual({ success: true, data: awkward });
    expect(parseSkill(renderSkill(skill).replace(/\n/g, '\r\n'))).toEqual({ success: true, data: skill });
  });

  it('names what is missing when the front matter is absent', () => {
    const result = parseSkill('## When it applies\n\nx\n\n## What to do\n\ny\n');
    expect(result).toEqual({ success: false, error: expect.stringContaining('front matter') });
  });

  it('names the missing field', () => {
    const text = renderSkill(skill).replace(/^pattern: .*\n/m, '');
    expect(parseSkill(text)).toEqual({ success: false, error: expect.stringContaining('pattern') });
  });

  it('names the missing section', () => {
    const text = renderSkill(skill).replace('## What to do', '## Steps');
    expect(parseSkill(text)).toEqual({ success: false, error: expect.stringContaining('## What to do') });
  });
});

describe('skillId', () => {
  it('is 12 hex digits, stable, and ignores whitespace differences in the trigger', () => {
    expect(skillId('cross_dep', 'a  b\nc')).toMatch(/^[0-9a-f]{12}$/);
    expect(skillId('cross_dep', 'a  b\nc')).toBe(skillId('cross_dep', ' a b c '));
    expect(skillId('cross_dep', 'a b c')).not.toBe(skillId('missing_impl', 'a b c'));
  });
});

describe('matchSkills', () => {
  const other: Skill = { ...skill, id: 'b', whenItApplies: 'Parsing dates in the report module' };

  it('returns the skills whose trigger is similar to the task, best first', () => {
    const exact: Skill = { ...skill, id: 'c', whenItApplies: 'calc modules import names' };
    const task = 'Add mul to calc modules so tests can import names';
    expect(matchSkills([other, skill, exact], task).map((s) => s.id)).toEqual(['c', skill.id]);
  });

  it('honours the threshold', () => {
    // {parsing, dates, report, module} vs {fix, parsing, dates}: 2 / 3.
    expect(matchSkills([other], 'fix parsing dates', 0.7)).toEqual([]);
    expect(matchSkills([other], 'fix parsing dates', 0.6)).toEqual([other]);
  });
});
