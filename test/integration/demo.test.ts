import { execa } from 'execa';
import { mkdtemp, readFile, realpath } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import type { ProjectReport } from '../../domain/project/project-report.js';
import { projectRoot } from '../../platform/paths.js';
import { runTaskloop } from '../support/cli.js';
import type { TaskOutcome } from '../../domain/task-state.js';
import { connectTestClient, startTestWorkers, uniqueId } from './support/temporal.js';

describe('taskloop demo', () => {
  it('runs the five calc tasks on the test server to the expected outcomes, with an in-attempt test run and a skill offered', async () => {
    const home = await mkdtemp(path.join(os.tmpdir(), 'taskloop-demo-home-'));
    // TEMPORAL_ADDRESS makes the demo attach to the test server instead of starting one; a queue of its own keeps
    // its worker away from other test files' workflows.
    const taskQueue = uniqueId('demo');
    const env = {
      ...process.env,
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      TASKLOOP_HOME: home,
      TASKLOOP_TASK_QUEUE: taskQueue,
    };
    const result = await runTaskloop(['demo', '--json'], { env, timeout: 170_000 });

    expect(result.exitCode, result.all).toBe(0);
    const report = JSON.parse(result.stdout) as ProjectReport;
    expect(report.tasks.map((task) => [task.id, task.status, task.attempts])).toEqual([
      ['fix-add', 'COMPLETED', 1],
      ['fix-mean', 'COMPLETED', 2],
      ['fix-median', 'COMPLETED', 2],
      ['fix-mul-doc', 'COMPLETED', 2],
      ['document-spread', 'COMPLETED', 1],
    ]);
    expect(report).toMatchObject({ status: 'COMPLETED', total: 5, passRate: 1, passRateAtAttempt1: 0.4 });
    // fix-add checked its own work twice inside attempt 1; fix-mean and fix-median failed alike and made a skill.
    expect(report.telemetry.in_attempt_test_runs).toBe(2);
    const skilled = report.runTasks?.filter((task) => (task.usedSkills ?? []).length > 0).map((task) => task.taskId);
    // The later task is offered the skill; a retry of the two that made it may be too, when it is written in time.
    expect(skilled).toContain('document-spread');
    expect(skilled?.every((id) => ['fix-mean', 'fix-median', 'document-spread'].includes(id))).toBe(true);
    expect(result.stderr).toContain('In-attempt test runs: 2');
    expect(result.stderr).toMatch(
      /Skill [0-9a-f]{12} \(wrong_constant, distilled-written, from 2 failures\), offered to: [a-z, -]*document-spread/,
    );
    expect(result.stderr).toMatch(/Report card, skills: with [1-3] tasks?, pass 100%/);
    // What a person reads: the same outcomes in the printed table.
    for (const [id, attempts] of [
      ['fix-add', 1],
      ['fix-mean', 2],
      ['fix-median', 2],
      ['fix-mul-doc', 2],
      ['document-spread', 1],
    ] as const) {
      expect(result.stderr).toMatch(new RegExp(`\\n {2}${id} +COMPLETED +${attempts} `));
    }
    expect(result.stderr).toContain(`Temporal is serving at ${inject('temporalAddress')}`);
    // The README's first task names the demo's project as .taskloop/demo/latest/calc.
    const made = /Made the Python project (\S+) /.exec(result.stderr)?.[1] ?? '';
    expect(await realpath(path.join(home, 'demo', 'latest', 'calc'))).toBe(await realpath(made));
    // fix-mul-doc landed on the demo repository's main through its merge queue, its tests run on the merged tree that
    // main now points at; the report lists it, in JSON and in the printed table.
    const landed = (report as ProjectReport & { landed: { taskId: string; target: string; commit: string }[] }).landed;
    expect(landed).toEqual([expect.objectContaining({ taskId: 'fix-mul-doc', target: 'main' })]);
    const commit = landed[0]?.commit ?? '';
    const git = (...args: string[]) => execa('git', ['-C', made, ...args]);
    expect((await git('rev-parse', 'main')).stdout).toBe(commit);
    expect(result.stderr).toMatch(new RegExp(`\\n {2}fix-mul-doc +main +${commit.slice(0, 12)} `));
    const project = /Started project project-(demo-\S+) with/.exec(result.stderr)?.[1] ?? '';
    const { client, connection } = await connectTestClient();
    try {
      const outcome = (await client.workflow.getHandle(`task-${project}-fix-mul-doc`).result()) as TaskOutcome;
      expect(outcome.landing).toMatchObject({ status: 'landed', landed: commit, tests: { outcome: 'passed' } });
      const tree = outcome.landing?.status === 'landed' ? outcome.landing.tests?.tree : undefined;
      expect((await git('rev-parse', `${commit}^{tree}`)).stdout).toBe(tree);
    } finally {
      await connection.close();
    }
    // The worker's log lines go to the file the demo names, not between the lines of its board.
    const workerLog = /Worker log: (\S+)/.exec(result.stderr)?.[1] ?? '';
    expect(await readFile(workerLog, 'utf8')).toMatch(/\[INFO\] task fix-add: /);
    expect(result.stderr).not.toMatch(/\[(INFO|WARN)\] /);
    // fix-mul-doc's first attempt edits a test: the review's path rules refuse it at the test node, no test runs and
    // the review is never asked.
    const events = (await readFile(path.join(home, 'events.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map(
        (line) => JSON.parse(line) as { type: string; taskId: string; attempt: number; data: Record<string, unknown> },
      )
      .filter((event) => event.taskId === 'fix-mul-doc' && event.attempt === 1);
    expect(events.map((event) => event.type)).toEqual(['TEST_FAILED', 'TASK_FAILED']);
    expect(events[0]?.data.refused).toMatchObject([{ rule: 'test_file_edited' }]);

    // The temporal commands the demo prints, and the query and list examples of docs/cli.md, run as written on its ids.
    const printed = result.stderr
      .split('\n')
      .filter((line) => line.includes(' workflow ') && line.startsWith('  '))
      .map((line) => line.trim());
    expect(printed).toHaveLength(3);
    const cliPage = await readFile(path.join(projectRoot, 'docs', 'cli.md'), 'utf8');
    const examples = cliPage
      .split('\n')
      .filter((line) => /^temporal workflow (query|list) /.test(line))
      .map(
        (line) =>
          `${line.replaceAll('demo-<time>', project).replace(/^temporal/, inject('temporalCli'))} --address ${inject('temporalAddress')}`,
      );
    expect(examples).toHaveLength(2);
    // A query is answered by a worker, as the demo says: start one on the demo's queue.
    const worker = await startTestWorkers({ taskQueue });
    try {
      for (const command of [...printed, ...examples]) {
        const run = await execa('sh', ['-c', `${command} --output json`], { reject: false });
        expect(run.exitCode, `${command}\n${run.stderr}`).toBe(0);
        if (command.includes('workflow list') && !command.includes('Failed'))
          expect(run.stdout).toContain(`task-${project}-fix-add`);
        if (command.includes('workflow query'))
          expect(JSON.parse(run.stdout).queryResult[0]).toMatchObject({ status: 'COMPLETED', project });
      }
    } finally {
      await worker.stop();
    }
  }, 180_000);
});
