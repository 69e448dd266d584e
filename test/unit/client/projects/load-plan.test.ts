import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../../client/cli-errors.js';
import { loadProjectPlan } from '../../../../client/projects/load-plan.js';
import { makeRepo, makeTempDir } from '../../../support/git-repo.js';

async function writeTasks(repo: string, extra = ''): Promise<{ dir: string; file: string }> {
  const dir = await makeTempDir();
  await mkdir(path.join(dir, 'scripts'));
  await writeFile(
    path.join(dir, 'scripts', 'fix.json'),
    JSON.stringify({ coder: [{ tool_calls: [{ name: 'finish', arguments: { summary: 'ok' } }] }] }),
  );
  const file = path.join(dir, 'tasks.yaml');
  const text = [
    'project: calc',
    `repo: ${repo}`,
    'defaults: { models: { coder: scripted:scripts/fix.json } }',
    'milestones:',
    '  - id: m1',
    '    features:',
    '      - id: f1',
    '        tasks:',
    '          - { id: a, goal: "Fix a" }',
    `          - { id: b, goal: "Fix b", dependsOn: [a]${extra} }`,
  ].join('\n');
  await writeFile(file, `${text}\n`);
  return { dir, file };
}

describe('loadProjectPlan', () => {
  it('returns the plan with every task checked and its scripted file resolved next to the tasks file', async () => {
    const repo = await makeRepo();
    const { dir, file } = await writeTasks(repo);
    const plan = await loadProjectPlan('schedule', file, '/');
    expect(plan.project).toBe('calc');
    expect(plan.tasks.map((task) => [task.spec.id, task.dependsOn])).toEqual([
      ['a', []],
      ['b', ['a']],
    ]);
    expect(plan.tasks[1]?.spec.models.coder).toBe(`scripted:${path.join(dir, 'scripts', 'fix.json')}`);
  });

  it('refuses a base ref that is not in the repository, naming the task and the ref', async () => {
    const repo = await makeRepo();
    const { file } = await writeTasks(repo, ', baseRef: nowhere');
    const error = await loadProjectPlan('schedule', file, '/').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(
      `taskloop schedule: ${file}: task b: baseRef: "nowhere" is not a commit in ${repo}; pass --base-ref with an existing branch, tag or sha`,
    );
  });

  it('lists the problems of the file itself at file:line:col', async () => {
    const repo = await makeRepo();
    const { file } = await writeTasks(repo, ', maxRetries: lots');
    const error = await loadProjectPlan('schedule', file, '/').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toContain('the tasks file has 1 problem(s), nothing was started:');
    expect((error as Error).message).toMatch(
      new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:10:\\d+ .*maxRetries.*"lots"`),
    );
  });
});
