import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { learningWorkflowId } from '../../workflows/learning/messages.js';
import { calcFiles, fixTurns, turn, type ScriptTurn } from '../support/calc-project.js';
import { meanFiles, wrongMean } from './support/mean-project.js';
import { makeRepo, makeTempDir } from '../support/git-repo.js';
import { eventually, uniqueId, useTestTemporal } from './support/temporal.js';
import { startTestTask, taskOutcome, taskSpec } from './support/tasks.js';

const skillDraft = {
  content: JSON.stringify({
    whenItApplies: 'fix calc.mean returning the wrong average',
    whatToDo: 'Use true division: the tests expect 1.5 for [1, 2].',
  }),
};

async function firstUserMessage(transcriptPath: string | undefined): Promise<string> {
  const messages = JSON.parse(await readFile(transcriptPath ?? '', 'utf8')) as { role: string; content: string }[];
  return messages.find((message) => message.role === 'user')?.content ?? '';
}

describe('learning in the loop: patterns, adaptations, the learning workflow and skills', () => {
  const t = useTestTemporal('learning');
  const learningWorkflows: string[] = [];

  afterAll(async () => {
    for (const id of learningWorkflows)
      await t.client.workflow
        .getHandle(id)
        .terminate('test over')
        .catch(() => undefined);
  });

  it('goes on without what the project learned when no worker answers its query: the claim and the coder are not held up', async () => {
    const project = uniqueId('p-unanswered');
    // The project's learning workflow exists, but on a queue no worker polls, so a query of it never gets an answer.
    const learning = await t.client.workflow.start('learningWorkflow', {
      taskQueue: uniqueId('nobody-polls'),
      workflowId: learningWorkflowId(project, 'coder'),
      args: [{ project, role: 'coder' }],
    });
    learningWorkflows.push(learning.workflowId);
    const repo = await makeRepo(calcFiles);
    const scriptFile = path.join(await makeTempDir(), 'script.json');
    await writeFile(scriptFile, JSON.stringify({ coder: fixTurns() }));
    const spec = taskSpec({
      id: 'unanswered',
      project,
      repo,
      goal: 'Fix add in calc.py',
      models: { coder: `scripted:${scriptFile}` },
    });
    const outcome = await taskOutcome(await startTestTask(t.client, t.host.taskQueue, spec));
    expect(outcome.status).toBe('COMPLETED');
    expect(outcome.attempts.map((attempt) => attempt.status)).toEqual(['PASSED']);
    expect(outcome.attempts[0]?.coder?.skillsOffered ?? []).toEqual([]);
  });

  it('records a cross_dep failure at attempt 1 and gives attempt 2 the expand-dependency adaptation', async () => {
    const repo = await makeRepo(calcFiles);
    const dir = await makeTempDir();
    const scriptFile = path.join(dir, 'script.json');
    // helpers.py exists but lacks the name: an import error inside the repository (a module outside it is test_infra).
    const breakImport = [
      turn('write_file', { path: 'helpers.py', content: 'def magnitude(x):\n    return abs(x)\n' }),
      turn('write_file', {
        path: 'calc.py',
        content:
          'from helpers import absolute\n\n\ndef add(a, b):\n    return absolute(a) + b\n\n\ndef mul(a, b):\n    return a * b\n',
      }),
      turn('finish', { summary: 'used helpers' }),
    ];
    await writeFile(scriptFile, JSON.stringify({ coder: [...breakImport, ...fixTurns()] }));
    const spec = taskSpec({ repo, goal: 'Fix add in calc.py', models: { coder: `scripted:${scriptFile}` } });
    learningWorkflows.push(learningWorkflowId(spec.project, 'coder'));
    const handle = await startTestTask(t.client, t.host.taskQueue, spec);
    const outcome = await handle.result();

    expect(outcome.status).toBe('COMPLETED');
    // Visibility says the present: the completed task keeps its failed attempt's class and pattern only in its attempts.
    expect(outcome.attempts[0]?.failure?.failureClass).toBe('code_defect');
    // A cleared attribute reads as absent on the dev server and as [null] on SQL visibility (the cluster tier).
    expect((await handle.describe()).searchAttributes.FailurePattern?.[0] ?? undefined).toBeUndefined();
    expect(outcome.attempts[0]?.test?.patterns?.[0]).toMatchObject({
      type: 'cross_dep',
      symbols: expect.arrayContaining(['helpers']),
    });
    expect(outcome.attempts[1]?.adaptations).toEqual([
      expect.objectContaining({ strategy: 'expand_dependency_context', source: 'own_attempts' }),
    ]);
    expect(await firstUserMessage(outcome.attempts[1]?.coder?.transcript?.path)).toContain(
      'Adaptations for this attempt',
    );
  });

  it('distils a skill from two similar failures with no skill-writer model, and offers it to the next similar task', async () => {
    const repo = await makeRepo(meanFiles);
    const dir = await makeTempDir();
    const project = uniqueId('distil');
    learningWorkflows.push(learningWorkflowId(project, 'coder'));
    const run = async (
      id: string,
      goal: string,
      coder: ScriptTurn[],
      extra: Partial<Parameters<typeof taskSpec>[0]> = {},
    ) => {
      const scriptFile = path.join(dir, `${id}.json`);
      await writeFile(scriptFile, JSON.stringify({ coder }));
      return taskOutcome(
        await startTestTask(
          t.client,
          t.host.taskQueue,
          taskSpec({ id, project, repo, goal, maxRetries: 0, models: { coder: `scripted:${scriptFile}` }, ...extra }),
        ),
      );
    };
    expect((await run('mean-1', 'Fix calc.mean returning the wrong average (case 1)', wrongMean())).status).toBe(
      'FAILED',
    );
    expect((await run('mean-2', 'Fix calc.mean returning the wrong average (case 2)', wrongMean())).status).toBe(
      'FAILED',
    );

    const skillsDir = path.join(t.host.workDir, 'skills', project);
    const files = await eventually('the distilled skill file', async () => {
      // Only finished skills: a mirror is written to a temporary name first, then renamed.
      const found = (await readdir(skillsDir).catch(() => [])).filter((name) => name.endsWith('.md'));
      return found.length > 0 ? found : undefined;
    });
    expect(files).toHaveLength(1);
    const skill = await readFile(path.join(skillsDir, files[0] ?? ''), 'utf8');
    expect(skill).toContain('written_by: distilled');
    expect(skill).toContain('pattern: wrong_constant');
    expect(skill).toContain(`mean-1 (task-${project}-mean-1, attempt 1)`);
    expect(skill).toContain(`mean-2 (task-${project}-mean-2, attempt 1)`);
    expect(skill).toContain('assert 1 == 1.5');

    const later = await run('mean-3', 'Fix calc.mean returning the wrong average (case 3)', fixTurns(), {
      maxRetries: 2,
      testCommand: ['python3', '-m', 'pytest', '-q', 'tests/test_calc.py'],
    });
    expect(later.attempts[0]?.coder?.skillsOffered).toEqual([files[0]?.replace(/\.md$/, '')]);
    expect(await firstUserMessage(later.attempts[0]?.coder?.transcript?.path)).toContain(
      'Similar tasks failed 2 times with the pattern wrong_constant',
    );
  });

  it('turns two similar failures into a skill that a later similar task is given, with the history adaptation', async () => {
    const repo = await makeRepo(meanFiles);
    const dir = await makeTempDir();
    const project = uniqueId('learn');
    learningWorkflows.push(learningWorkflowId(project, 'coder'));
    const scriptFor = async (name: string, coder: ScriptTurn[]) => {
      const file = path.join(dir, `${name}.json`);
      await writeFile(file, JSON.stringify({ coder, skillWriter: [skillDraft] }));
      return file;
    };
    const failing = async (n: number) => {
      const scriptFile = await scriptFor(`fail-${n}`, wrongMean());
      const spec = taskSpec({
        id: `mean-${n}`,
        project,
        repo,
        goal: `Fix calc.mean returning the wrong average (case ${n})`,
        maxRetries: 0,
        models: { coder: `scripted:${scriptFile}`, skillWriter: `scripted:${scriptFile}` },
      });
      return taskOutcome(await startTestTask(t.client, t.host.taskQueue, spec));
    };
    const [first, second] = [await failing(1), await failing(2)];
    expect([first.status, second.status]).toEqual(['FAILED', 'FAILED']);
    expect(first.attempts[0]?.test?.patterns?.[0]?.type).toBe('wrong_constant');

    const skillsDir = path.join(t.host.workDir, 'skills', project);
    const skillFiles = await eventually('the skill file', async () => {
      const files = (await readdir(skillsDir).catch(() => [])).filter((name) => name.endsWith('.md'));
      return files.length > 0 ? files : undefined;
    });
    expect(skillFiles).toHaveLength(1);
    const skill = await readFile(path.join(skillsDir, skillFiles[0] ?? ''), 'utf8');
    expect(skill).toContain(`task-${project}-mean-1`);
    expect(skill).toContain(`task-${project}-mean-2`);

    const scriptFile = await scriptFor('later', fixTurns());
    const later = taskSpec({
      id: 'mean-3',
      project,
      repo,
      goal: 'Fix calc.mean returning the wrong average (case 3)',
      testCommand: ['python3', '-m', 'pytest', '-q', 'tests/test_calc.py'],
      models: { coder: `scripted:${scriptFile}` },
    });
    const outcome = await taskOutcome(await startTestTask(t.client, t.host.taskQueue, later));
    const attempt = outcome.attempts[0];
    expect(attempt?.coder?.skillsOffered).toEqual([skillFiles[0]?.replace(/\.md$/, '')]);
    expect(attempt?.adaptations).toEqual([
      expect.objectContaining({ strategy: 'prioritize_constants', source: 'history' }),
    ]);
    const context = await firstUserMessage(attempt?.coder?.transcript?.path);
    expect(context).toContain('Use true division');
    expect(context).toContain('Adaptations for this attempt');
  });
});
