import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findSkillsFor, formatSkillsForPrompt } from '../../../../activities/skills/load-skills.js';
import { writeSkillFile } from '../../../../activities/skills/store.js';

const write = (dir: string, id: string, whenItApplies: string) =>
  writeSkillFile(dir, {
    id,
    pattern: 'cross_dep',
    whenItApplies,
    whatToDo: `Do ${id}.`,
    sourceWorkflowIds: ['w1'],
    createdAt: 'T',
  });

describe('findSkillsFor', () => {
  it('offers the skills whose trigger overlaps the task description, best match first, with their files', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-'));
    await write(dir, 'partial', 'cache key fetcher timeout retries');
    await write(dir, 'exact', 'cache key ignored by fetcher');
    await write(dir, 'other', 'divide command in the calculator');
    const offered = await findSkillsFor(dir, 'Fix #218: the fetcher ignores cache_key');
    expect(offered).toEqual([
      {
        id: 'exact',
        path: path.join(dir, 'exact.md'),
        whenItApplies: 'cache key ignored by fetcher',
        whatToDo: 'Do exact.',
      },
      {
        id: 'partial',
        path: path.join(dir, 'partial.md'),
        whenItApplies: 'cache key fetcher timeout retries',
        whatToDo: 'Do partial.',
      },
    ]);
  });

  it('offers at most `limit` skills and none from a missing folder', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-'));
    await write(dir, 'a', 'cache key fetcher');
    await write(dir, 'b', 'cache key fetcher again');
    expect(await findSkillsFor(dir, 'cache key fetcher', { limit: 1 })).toHaveLength(1);
    expect(await findSkillsFor(path.join(dir, 'missing'), 'cache key fetcher')).toEqual([]);
  });
});

describe('formatSkillsForPrompt', () => {
  it('is empty without skills and lists each skill with its id otherwise', () => {
    expect(formatSkillsForPrompt([])).toBe('');
    const text = formatSkillsForPrompt([
      { id: 's1', path: '/s1.md', whenItApplies: 'cache keys', whatToDo: 'read fetcher.py' },
    ]);
    expect(text).toContain('### Skill s1\nWhen it applies: cache keys\nWhat to do: read fetcher.py');
  });
});
