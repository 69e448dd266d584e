import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildLearningSections } from '../../../../activities/coder/learning-sections.js';
import { renderSkill, skillId } from '../../../../domain/learning/skills.js';

describe("the learning parts of the coder's context", () => {
  it('offers the matching skill and lists the adaptations with their reasons', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-skills-'));
    const whenItApplies = 'fix the mean function in calc so averages are right';
    const id = skillId('wrong_constant', whenItApplies);
    await writeFile(
      path.join(dir, `${id}.md`),
      renderSkill({ id, pattern: 'wrong_constant', whenItApplies, whatToDo: 'Use true division.', sourceWorkflowIds: ['task-p-a', 'task-p-b'], createdAt: '2026-11-29T00:00:00Z' }),
    );
    const built = await buildLearningSections({
      skillsDir: dir,
      goal: 'Fix the mean function in calc: averages are wrong',
      adaptations: [{ strategy: 'prioritize_constants', reason: 'attempt 1 failed with wrong_constant', source: 'own_attempts' }],
    });
    expect(built.skillsOffered).toEqual([id]);
    expect(built.sections.map((section) => section.title)).toEqual(['Skills learned from earlier failures in this project', 'Adaptations for this attempt']);
    expect(built.sections[0]?.text).toContain('Use true division.');
    expect(built.sections[1]?.text).toContain('attempt 1 failed with wrong_constant');
  });

  it('adds nothing when there are no skills and no adaptations', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'taskloop-skills-'));
    expect(await buildLearningSections({ skillsDir: dir, goal: 'Fix add', adaptations: [] })).toEqual({ sections: [], skillsOffered: [] });
  });
});
