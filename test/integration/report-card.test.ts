import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import type { ReportCard } from '../../domain/learning/report-card.js';
import { projectWorkflowId, type PlannedTask, type ProjectPlan } from '../../domain/project/plan.js';
import type { ProjectReport } from '../../domain/project/project-report.js';
import { parseTaskSpec } from '../../domain/task-spec.js';
import type { projectWorkflow } from '../../workflows/project.js';
import { runTaskloop } from '../support/cli.js';
import { calcFiles, fixTurns, turn, type ScriptTurn } from '../support/calc-project.js';
import { makeRepo, makeTempDir } from '../support/git-repo.js';
import { eventually, uniqueId, useTestTemporal } from './support/temporal.js';

const LONG_TEST_MS = 180_000;

/** Makes add multiply whatever the worktree holds, so a retry fails the same way. */
const multiplyTurns = (): ScriptTurn[] => [
  turn('write_file', {
    path: 'calc.py',
    content: 'def add(a, b):\n    return a * b\n\n\ndef mul(a, b):\n    return a * b\n',
  }),
  turn('finish', { summary: 'changed add to multiply' }),
];

/** Each coder turn reports one input token, so prompt tokens (and so compression) do not depend on estimates. */
const withUsage = (turns: ScriptTurn[]) =>
  turns.map((turn) => ({ ...turn, usage: { input_tokens: 1, output_tokens: 1 } }));

describe('taskloop report shows a report card that trends against the previous run of the same project', () => {
  const t = useTestTemporal('report-card');

  /**
   * One run on a fresh calc repository, started the way a schedule starts one (`project-<name>-<run>`), so its
   * task workflows are its own; `taskloop report <name>` then reads the latest run. Task a fixes add; b fixes it
   * when `bFixes`, else fails both of its two attempts.
   */
  async function runProject(
    project: string,
    run: string,
    bFixes: boolean,
  ): Promise<{ report: ProjectReport; runId: string }> {
    const repo = await makeRepo(calcFiles);
    const dir = await makeTempDir();
    const tasks: PlannedTask[] = [];
    const runs = [
      ['a', fixTurns(), 0],
      ['b', bFixes ? fixTurns() : [...multiplyTurns(), ...multiplyTurns()], bFixes ? 0 : 1],
    ] as const;
    for (const [id, turns, maxRetries] of runs) {
      const file = path.join(dir, `${id}.json`);
      await writeFile(file, JSON.stringify({ coder: withUsage(turns) }));
      const spec = parseTaskSpec({
        id,
        project,
        repo,
        goal: `Fix add in calc.py (${id})`,
        maxRetries,
        models: { coder: `scripted:${file}` },
      });
      if (!spec.success) throw new Error(spec.error);
      tasks.push({ spec: spec.data, milestone: 'm1', feature: 'f1', dependsOn: [] });
    }
    const plan: ProjectPlan = {
      project,
      repo,
      concurrency: 2,
      milestones: [{ id: 'm1', features: [{ id: 'f1', taskIds: ['a', 'b'] }] }],
      tasks,
    };
    const handle = await t.client.workflow.start<typeof projectWorkflow>('projectWorkflow', {
      taskQueue: t.host.taskQueue,
      workflowId: `${projectWorkflowId(project)}-${run}`,
      args: [{ plan }],
    });
    return { report: await handle.result(), runId: handle.firstExecutionRunId };
  }

  it(
    'stores the first run card, trends the second against it, and keeps lesson ids across report calls',
    async () => {
      const project = uniqueId('rc');
      const home = await makeTempDir();
      const env = { ...process.env, TEMPORAL_ADDRESS: inject('temporalAddress'), TASKLOOP_HOME: home };
      const report = async (...flags: string[]) => {
        const result = await runTaskloop(['report', project, ...flags], { env });
        expect(result.exitCode, result.all).toBe(0);
        return result.stdout;
      };
      const cardOf = async () => (JSON.parse(await report('--json')) as ProjectReport & { card: ReportCard }).card;
      // Visibility lists a run a moment after it starts; until then the name means no run, or the earlier one.
      const cardOfRun = (run: string) =>
        eventually(
          `the report to show ${run}`,
          async () => {
            const result = await runTaskloop(['report', project, '--json'], { env });
            const shown =
              result.exitCode === 0 ? (JSON.parse(result.stdout) as ProjectReport & { card: ReportCard }) : undefined;
            return shown?.tasks[0]?.workflowId?.endsWith(`-${run}`) ? shown.card : undefined;
          },
          60_000,
        );

      const first = await runProject(project, 'run1', false);
      expect(first.report.runTasks?.map((task) => [task.taskId, task.status, task.passedAtAttempt])).toEqual([
        ['a', 'COMPLETED', 1],
        ['b', 'FAILED', undefined],
      ]);
      expect(first.report.runTasks?.[0]?.acceptedDiffTokens).toBeGreaterThan(0);
      // Two coder turns of one input token each per attempt.
      expect(first.report.runTasks?.map((task) => task.promptTokens)).toEqual([2, 4]);
      // b failed twice the same way: two top patterns of one type, so a systemic lesson.
      const bPatterns = first.report.runTasks?.[1]?.patterns ?? [];
      expect(bPatterns).toHaveLength(2);
      expect(bPatterns[1]).toBe(bPatterns[0]);
      const firstCard = await cardOfRun('run1');
      expect(firstCard).toMatchObject({
        fidelity: 0.5,
        passRateAt1: 0.5,
        passRateAt2: 0.5,
        grade: 'D',
        tasks: { total: 2, completed: 1, failed: 1 },
      });
      expect(firstCard.patterns).toEqual([{ pattern: bPatterns[0], count: 2, share: 1 }]);
      expect(firstCard.trends.fidelity).toEqual({ direction: 'STABLE', delta: 0 });
      expect(firstCard.lessons.map((lesson) => lesson.category)).toContain('systemic');
      expect(await cardOf()).toEqual(firstCard);
      expect(await readdir(path.join(home, 'reports', project))).toEqual([`${first.runId}.json`]);

      const second = await runProject(project, 'run2', true);
      expect(
        second.report.tasks.map((task) => task.status),
        JSON.stringify(second.report.tasks),
      ).toEqual(['COMPLETED', 'COMPLETED']);
      const secondCard = await cardOfRun('run2');
      // Both tasks pass; each diff is tens of tokens against 2 prompt tokens, so compression is well above 5.
      expect(secondCard).toMatchObject({ fidelity: 1, passRateAt1: 1, grade: 'A', novel: { count: 0 } });
      expect(secondCard.compression).toBeGreaterThanOrEqual(5);
      expect(secondCard.trends.fidelity).toEqual({ direction: 'UP', delta: 0.5, previous: 0.5 });
      expect(secondCard.trends.passRateAt1).toEqual({ direction: 'UP', delta: 0.5, previous: 0.5 });
      expect(secondCard.trends.compression.previous).toBe(firstCard.compression);
      expect((await readdir(path.join(home, 'reports', project))).sort()).toEqual(
        [`${first.runId}.json`, `${second.runId}.json`].sort(),
      );

      // A second look at the same run is the same card (same previous run, same lesson ids), and the table and Markdown show it.
      const again = await cardOf();
      expect(again).toEqual(secondCard);
      expect(again.lessons.map((lesson) => lesson.id)).toEqual(secondCard.lessons.map((lesson) => lesson.id));
      const [table, markdown] = await Promise.all([report(), report('--markdown')]);
      expect(table).toContain('report card:');
      expect(table).toMatch(/grade\s+A \(fidelity 100%/);
      expect(table).toContain('fidelity ↑ UP +50% (was 50%)');
      expect(markdown).toContain('### Report card');
      expect(markdown).toContain('- **grade**: A');
    },
    LONG_TEST_MS,
  );
});
