import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLearningSections } from '../../../../activities/coder/learning-sections.js';
import type { Strategy } from '../../../../domain/learning/patterns/types.js';
import { skillId } from '../../../../domain/learning/skills.js';
import { createTempRepo, type TempRepo } from './fixtures.js';

describe("the learning parts of the coder's context", () => {
  it('offers the matching skill and lists the adaptations with their reasons', async () => {
    const whenItApplies = 'fix the mean function in calc so averages are right';
    const id = skillId('wrong_constant', whenItApplies);
    const skill = {
      id,
      pattern: 'wrong_constant',
      whenItApplies,
      whatToDo: 'Use true division.',
      sourceWorkflowIds: ['task-p-a', 'task-p-b'],
      createdAt: '2026-11-29T00:00:00Z',
    };
    const asked: string[] = [];
    const built = await buildLearningSections({
      project: 'p',
      readProjectSkills: (project) => {
        asked.push(project);
        return Promise.resolve([skill]);
      },
      goal: 'Fix the mean function in calc: averages are wrong',
      adaptations: [
        { strategy: 'prioritize_constants', reason: 'attempt 1 failed with wrong_constant', source: 'own_attempts' },
      ],
    });
    expect(asked).toEqual(['p']);
    expect(built.skillsOffered).toEqual([id]);
    expect(built.sections.map((section) => section.title)).toEqual([
      'Skills learned from earlier failures in this project',
      'Adaptations for this attempt',
    ]);
    expect(built.sections[0]?.text).toContain('Use true division.');
    expect(built.sections[1]?.text).toContain('attempt 1 failed with wrong_constant');
  });

  it('takes the skills the claim read (handed on by the workflow) as they are, without reading them again', async () => {
    const whenItApplies = 'fix the add function';
    const skill = {
      id: skillId('wrong_operator', whenItApplies),
      pattern: 'wrong_operator',
      whenItApplies,
      whatToDo: 'Check the operator.',
      sourceWorkflowIds: ['task-p-a'],
      createdAt: '2026-11-29T00:00:00Z',
    };
    const asked: string[] = [];
    const built = await buildLearningSections({
      project: 'p',
      offered: [{ id: skill.id, whenItApplies, whatToDo: skill.whatToDo, hosts: [] }],
      readProjectSkills: (project) => {
        asked.push(project);
        return Promise.resolve([]);
      },
      goal: 'Fix the add function in calc',
      adaptations: [],
    });
    expect(asked).toEqual([]);
    expect(built.skillsOffered).toEqual([skill.id]);
    expect(built.sections[0]?.text).toContain('Check the operator.');
  });

  it('adds nothing when there are no skills and no adaptations', async () => {
    const none = () => Promise.resolve([]);
    expect(
      await buildLearningSections({ project: 'p', readProjectSkills: none, goal: 'Fix add', adaptations: [] }),
    ).toEqual({
      sections: [],
      skillsOffered: [],
    });
  });
});

describe('adaptations deliver what they announce', () => {
  const calc =
    'import math\n\n\ndef mean(values):\n    """Average."""\n    return sum(values) // len(values)\n\n\ndef mul(a, b):\n    return a * b\n';
  const tests =
    'from calc import mean\n\n\ndef test_mean():\n    assert mean([1, 2], weights=None) == 1.5\n\n\ndef test_other():\n    assert True\n';
  const previousAttempts = [
    {
      attempt: 1,
      status: 'REWORK_REQUIRED',
      failureReason: 'tests failed: 1 failed, 0 errors (tests/test_calc.py::test_mean)',
      reviewFindings: [],
      judgeFindings: [],
      test: {
        counts: { total: 2, passed: 1, failed: 1, errors: 0, skipped: 0 },
        stdoutExcerpt: "E       TypeError: mean() got an unexpected keyword argument 'weights'",
        stderrExcerpt: '',
      },
    },
  ];
  let t: TempRepo;
  beforeAll(async () => {
    t = await createTempRepo({ 'calc.py': calc, 'tests/test_calc.py': tests });
  });
  afterAll(() => t.cleanup());

  const build = (strategy: Strategy, attempts = previousAttempts) =>
    buildLearningSections({
      project: 'p',
      readProjectSkills: () => Promise.resolve([]),
      goal: 'Fix mean',
      adaptations: [{ strategy, reason: 'attempt 1 failed with api_mismatch on calc.mean', source: 'own_attempts' }],
      worktreePath: t.repo,
      previousAttempts: attempts,
    });
  const textOf = async (strategy: Strategy, attempts = previousAttempts) =>
    (await build(strategy, attempts)).sections[0]?.text ?? '';

  it('fix_signatures shows the exact signature of the symbol the failure names', async () => {
    const text = await textOf('fix_signatures');
    expect(text).toContain('mean in calc.py:\n```python\ndef mean(values):\n```');
    expect(text).not.toContain('return sum(values)');
  });

  it('include_source_excerpt shows the definition of the symbol, body included', async () => {
    expect(await textOf('include_source_excerpt')).toContain(
      'def mean(values):\n    """Average."""\n    return sum(values) // len(values)',
    );
  });

  it("increase_tests_shown shows the failing test's source, and expand_dependency_context the modules it imports", async () => {
    const shown = await textOf('increase_tests_shown');
    expect(shown).toContain(
      'tests/test_calc.py::test_mean:\n```python\ndef test_mean():\n    assert mean([1, 2], weights=None) == 1.5\n```',
    );
    expect(shown).not.toContain('test_other');
    expect(await textOf('expand_dependency_context')).toContain(
      `module calc (calc.py):\n\`\`\`python\n${calc.trimEnd()}`,
    );
  });

  it('leaves out an adaptation with nothing to add', async () => {
    expect((await build('increase_tests_shown', [])).sections).toEqual([]);
  });
});
