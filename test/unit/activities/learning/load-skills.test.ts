import { describe, expect, it } from 'vitest';
import { findSkillsFor, formatSkillsForPrompt } from '../../../../activities/learning/load-skills.js';
import type { Skill } from '../../../../domain/learning/skills.js';

const skill = (id: string, whenItApplies: string, hosts?: string[]): Skill => ({
  id,
  pattern: 'cross_dep',
  whenItApplies,
  whatToDo: `Do ${id}.`,
  sourceWorkflowIds: ['w1'],
  createdAt: 'T',
  ...(hosts === undefined ? {} : { hosts }),
});

describe('findSkillsFor', () => {
  it('offers the learned skills whose trigger overlaps the task description, best match first, with their hosts', () => {
    const skills = [
      skill('partial', 'cache key fetcher timeout retries'),
      skill('exact', 'cache key ignored by fetcher', ['host-a', 'host-b']),
      skill('other', 'divide command in the calculator'),
    ];
    expect(findSkillsFor(skills, 'Fix #218: the fetcher ignores cache_key')).toEqual([
      {
        id: 'exact',
        whenItApplies: 'cache key ignored by fetcher',
        whatToDo: 'Do exact.',
        hosts: ['host-a', 'host-b'],
      },
      { id: 'partial', whenItApplies: 'cache key fetcher timeout retries', whatToDo: 'Do partial.', hosts: [] },
    ]);
  });

  it('offers at most `limit` skills and none when nothing was learned', () => {
    const skills = [skill('a', 'cache key fetcher'), skill('b', 'cache key fetcher again')];
    expect(findSkillsFor(skills, 'cache key fetcher', { limit: 1 })).toHaveLength(1);
    expect(findSkillsFor([], 'cache key fetcher')).toEqual([]);
  });
});

describe('formatSkillsForPrompt', () => {
  it('is empty without skills and lists each skill with its id otherwise', () => {
    expect(formatSkillsForPrompt([])).toBe('');
    const text = formatSkillsForPrompt([{ id: 's1', whenItApplies: 'cache keys', whatToDo: 'read fetcher.py' }]);
    expect(text).toContain('### Skill s1\nWhen it applies: cache keys\nWhat to do: read fetcher.py');
  });
});
