// Landing through the branch's queue on a real server, real git and real pytest: a change lands on main with the
// tests run on the merged tree (main checked out and clean in the user's repository: it moves with the branch), and a
// second change from the same base that conflicts goes back to its coder with the conflict and lands after.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeCalcProject, turn } from '../support/calc-project.js';
import { makeTempDir } from '../support/git-repo.js';
import { writeFile } from 'node:fs/promises';
import { useTestTemporal } from './support/temporal.js';
import { git, readEvents, startTestTask, taskSpec } from './support/tasks.js';

const addTurns = (from: string, to: string, summary: string) => [
  turn('replace_in_file', { path: 'calc.py', old: from, new: to }),
  turn('finish', { summary }),
];

async function scriptFile(turns: unknown[]): Promise<string> {
  const file = path.join(await makeTempDir(), 'script.json');
  await writeFile(file, JSON.stringify({ coder: turns }));
  return file;
}

describe('landing on a real server, real git and real pytest', () => {
  const t = useTestTemporal('landing');

  it('lands a change on main tested on the merged tree; a conflicting one goes back with the conflict and lands after', async () => {
    const project = await makeCalcProject({ coder: addTurns('return a - b', 'return a + b', 'fixed add') });
    const base = (await git(project.repo, 'rev-parse', 'main')).trim();

    const first = taskSpec({
      repo: project.repo,
      goal: 'Fix add in calc.py',
      landOn: 'main',
      models: { coder: `scripted:${project.scriptFile}` },
    });
    const firstOutcome = await (await startTestTask(t.client, t.host.taskQueue, first)).result();
    expect(firstOutcome.status).toBe('COMPLETED');
    expect(firstOutcome.landing).toMatchObject({
      status: 'landed',
      target: 'main',
      onto: base,
      fastForward: true,
      tests: { outcome: 'passed', counts: { passed: 2 } },
    });
    const afterFirst = (await git(project.repo, 'rev-parse', 'main')).trim();
    expect(afterFirst).toBe(firstOutcome.commit?.sha);
    // main is checked out in the user's repository: its files moved with it, nothing looks changed.
    expect(await readFile(path.join(project.repo, 'calc.py'), 'utf8')).toContain('return a + b');
    expect((await git(project.repo, 'status', '--porcelain', '--untracked-files=no')).trim()).toBe('');

    // From the same base: its change conflicts with what landed. Attempt 2 starts on main's new head.
    const second = taskSpec({
      repo: project.repo,
      baseRef: base,
      goal: 'Write add as b + a',
      landOn: 'main',
      models: {
        coder: `scripted:${await scriptFile([
          ...addTurns('return a - b', 'return b + a', 'b + a'),
          ...addTurns('return a + b', 'return b + a', 'b + a on the new head'),
        ])}`,
      },
    });
    const handle = await startTestTask(t.client, t.host.taskQueue, second);
    const outcome = await handle.result();
    expect(outcome.status).toBe('COMPLETED');
    expect(outcome.attempts).toHaveLength(2);
    expect(outcome.attempts[0]?.landing).toMatchObject({
      status: 'sent_back',
      cause: 'MergeConflict',
      onto: afterFirst,
      conflict: { files: ['calc.py'] },
    });
    const hint = outcome.attempts[1]?.hint ?? '';
    expect(hint).toContain('Conflicting files: calc.py');
    expect(hint).toContain('<<<<<<<');
    expect(hint).toContain(afterFirst.slice(0, 12));
    expect(outcome.landing).toMatchObject({ status: 'landed', onto: afterFirst, tests: { outcome: 'passed' } });

    // Both changes are on main, each once; the sent-back commit stays on its own branch.
    const landed = (await git(project.repo, 'rev-parse', 'main')).trim();
    expect(landed).toBe(outcome.landing?.status === 'landed' ? outcome.landing.landed : '');
    expect(await readFile(path.join(project.repo, 'calc.py'), 'utf8')).toContain('return b + a');
    const onMain = (await git(project.repo, 'log', '--format=%H', 'main')).split('\n');
    expect(onMain).toContain(firstOutcome.commit?.sha);
    expect(onMain).toContain(outcome.commit?.sha);
    expect(new Set(onMain).size).toBe(onMain.length);
    const sentBack = outcome.attempts[0]?.landing?.sha ?? '';
    expect(await git(project.repo, 'branch', '--contains', sentBack)).toContain(`taskloop/${second.id}`);

    const events = (await readEvents(t.host.eventsFile)).filter((event) => event.workflowId === handle.workflowId);
    expect(events.map((event) => event.type)).toEqual([
      'COMMIT_CREATED',
      'LANDING_SENT_BACK',
      'COMMIT_CREATED',
      'CHANGE_LANDED',
      'TASK_COMPLETED',
    ]);
  });
});
