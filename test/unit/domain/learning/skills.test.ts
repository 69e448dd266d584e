import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import {
  formatFrontMatter,
  matchSkills,
  parseSkill,
  readFrontMatter,
  renderSkill,
  skillId,
} from '../../../../domain/learning/skills.js';
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
  it('writes the provenance learned for every host (source tasks, hosts) as YAML lists that read back', () => {
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

describe('front matter (YAML)', () => {
  const body = '\n## When it applies\n\nx\n\n## What to do\n\ny\n';
  const withFront = (front: string) => `---\n${front}\n---\n${body}`;

  it('quotes values that would read as something else, and reads them back as the same strings', () => {
    const tricky = {
      ...skill,
      id: '123456789012',
      pattern: 'null',
      sourceWorkflowIds: ['yes', '0x1f', '1e3', '~', "it's"],
      createdAt: '2025-01-02',
    };
    const front = formatFrontMatter({
      id: tricky.id,
      pattern: tricky.pattern,
      applies_when: 'true',
      source_workflows: tricky.sourceWorkflowIds,
      created_at: tricky.createdAt,
    });
    expect(front).toContain('id: "123456789012"');
    expect(parseYaml(front)).toMatchObject({ id: '123456789012', pattern: 'null', applies_when: 'true' });
    expect(parseSkill(renderSkill(tricky))).toEqual({ success: true, data: tricky });
  });

  it('reads colons inside quoted values and hand-written single-quoted or flow lists', () => {
    const parsed = readFrontMatter(
      "id: abc\npattern: 'wrong: constant'\napplies_when: \"a: b # not a comment\"\nsource_workflows: [w-1, 'w: 2']\ncreated_at: 2025-01-02T03:04:05Z",
    );
    expect(parsed).toEqual({
      success: true,
      data: {
        id: 'abc',
        pattern: 'wrong: constant',
        applies_when: 'a: b # not a comment',
        source_workflows: ['w-1', 'w: 2'],
        created_at: '2025-01-02T03:04:05Z',
      },
    });
  });

  it('reads multi-line values (literal and folded blocks) written by hand', () => {
    const text = withFront(
      'id: abc\npattern: p\napplies_when: >-\n  tasks that import\n  from calc\nsource_workflows: []\ncreated_at: |-\n  2025\n  01',
    );
    const parsed = parseSkill(text);
    expect(parsed.success).toBe(true);
    const front = readFrontMatter(text.split('---\n')[1]!.trimEnd());
    expect(front).toMatchObject({ data: { applies_when: 'tasks that import from calc', created_at: '2025\n01' } });
  });

  it('never folds a long value over lines when writing', () => {
    const long = { ...skill, whenItApplies: 'word '.repeat(60).trim() };
    const front = renderSkill(long).split('---\n')[1]!;
    expect(front.split('\n').find((line) => line.startsWith('applies_when:'))).toBe(
      `applies_when: ${long.whenItApplies}`,
    );
  });

  it('names the YAML problem and the fix when the block is not YAML', () => {
    const result = parseSkill(withFront('id: abc\npattern: a: b: c\n  - bad'));
    expect(result).toEqual({
      success: false,
      error: expect.stringMatching(/front matter: not valid YAML .*key: value/),
    });
  });

  it('refuses a key given twice', () => {
    const result = parseSkill(
      withFront('id: abc\nid: def\npattern: p\napplies_when: x\nsource_workflows: []\ncreated_at: now'),
    );
    expect(result).toEqual({ success: false, error: expect.stringContaining('not valid YAML') });
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
