import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { skillFilePath, writeSkillFile } from '../../../../activities/learning/skill-files.js';
import { parseSkill } from '../../../../domain/learning/skills.js';
import type { Skill } from '../../../../domain/learning/skills.js';

const skill = (overrides: Partial<Skill> = {}): Skill => ({
  id: 'abc123def456',
  pattern: 'cross_dep',
  whenItApplies: 'Fixing the cache key the fetcher ignores',
  whatToDo: 'Read fetcher.py before editing cache.py.',
  sourceWorkflowIds: ['task-p-t1', 'task-p-t2'],
  createdAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});
const tempDir = () => mkdtemp(path.join(os.tmpdir(), 'taskloop-'));

describe('writeSkillFile', () => {
  it('creates the folder and writes <id>.md that reads back as the same skill, leaving no temporary file', async () => {
    const dir = path.join(await tempDir(), 'skills', 'p');
    const file = await writeSkillFile(dir, skill());
    expect(file).toBe(skillFilePath(dir, 'abc123def456'));
    expect(await readdir(dir)).toEqual(['abc123def456.md']);
    expect(parseSkill(await readFile(file, 'utf8'))).toEqual({ success: true, data: skill() });
  });

  it('replaces the file of the same id instead of adding a second one', async () => {
    const dir = await tempDir();
    await writeSkillFile(dir, skill());
    await writeSkillFile(dir, skill({ whatToDo: 'Something better.' }));
    expect(await readdir(dir)).toEqual(['abc123def456.md']);
    expect(await readFile(path.join(dir, 'abc123def456.md'), 'utf8')).toContain('Something better.');
  });
});
