// `taskloop show` on real runs: the real dev server, a real worker in this process, real git and pytest, scripted
// model turns (the demo's fix-add script), the real CLI. A completed task, a failed task and a small eval, shown as
// text and JSON, and their pages in headless Chromium (what a person sees: the tool calls, the diff, the verdicts).
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { TaskOutcome } from '../../domain/task-state.js';
import type { TaskTrajectory } from '../../domain/trajectory/trajectory.js';
import { projectRoot } from '../../platform/paths.js';
import { captureLivePage } from '../../scripts/web-ui/cdp.js';
import { findChromium } from '../../scripts/web-ui/browser.js';
import { anchorOf } from '../../client/show/render-html.js';
import { runTaskloop } from '../support/cli.js';
import { calcFiles, makeCalcProject, turn, wrongTurns, type ScriptTurn } from '../support/calc-project.js';
import { makeTempDir } from '../support/git-repo.js';
import { makeTinySuite } from '../support/eval-suite.js';
import { chatReply, startLocalModelServer } from '../unit/activities/models/support/local-model-server.js';
import { connectTestClient, eventually, startTestWorkers, uniqueId, type TestWorkerHost } from './support/temporal.js';
import { startTestTask, taskSpec } from './support/tasks.js';

// A secret the worker and the CLI both hold, planted in a repository file the coder reads: never printed.
const PLANTED = 'show-planted-secret-7f3a9c2e51';
process.env.SHOW_TEST_API_TOKEN = PLANTED;

const demoScript = JSON.parse(
  await readFile(path.join(projectRoot, 'examples', 'calc', 'scripts', 'fix-add.json'), 'utf8'),
) as { coder: ScriptTurn[] };
const readNotes = turn('read_file', { path: 'NOTES.md' }, 'Reading the notes first.');
const files = { ...calcFiles, 'NOTES.md': `deploy token: ${PLANTED}\n` };

/** Where the screenshots go: TASKLOOP_SHOW_SHOTS (docs/images, for docs/trajectories.md) or a temp folder. */
const shotsDir = process.env.TASKLOOP_SHOW_SHOTS ? path.resolve(process.env.TASKLOOP_SHOW_SHOTS) : await makeTempDir();
const pagesDir = await makeTempDir();

describe('taskloop show', () => {
  let host: TestWorkerHost;
  let home: string;
  const pages: Record<'completed' | 'failed' | 'eval', string> = { completed: '', failed: '', eval: '' };
  let completed: TaskOutcome;
  let failed: TaskOutcome;
  let evalOutcomeIds: string[] = [];
  let oracleShout = '';

  let client: Awaited<ReturnType<typeof connectTestClient>> | undefined;

  beforeAll(async () => {
    home = await makeTempDir();
    host = await startTestWorkers({ taskQueue: uniqueId('show') });
    client = await connectTestClient();
  });
  afterAll(async () => {
    await host?.stop();
    await client?.connection.close();
  });

  /** A workflow's current details as the Web UI reads them: the SDK's built-in metadata query. */
  const currentDetails = async (workflowId: string) =>
    (
      await client!.client.workflow
        .getHandle(workflowId)
        .query<{ currentDetails?: string }>('__temporal_workflow_metadata')
    ).currentDetails ?? '';

  const taskloop = (args: string[], cwd?: string) =>
    runTaskloop(args, {
      cwd,
      timeout: 240_000,
      env: { ...process.env, TEMPORAL_ADDRESS: inject('temporalAddress'), TASKLOOP_HOME: home },
    });

  async function runTask(id: string, coder: ScriptTurn[], extra: string[]): Promise<TaskOutcome> {
    const project = await makeCalcProject({ coder }, files);
    const result = await taskloop(
      [
        'run',
        '--repo',
        project.repo,
        '--goal',
        'Fix add in calc.py',
        '--model',
        'scripted:script.json',
        '--project',
        'show',
        '--id',
        id,
        '--task-queue',
        host.taskQueue,
        '--test-command',
        `python3 -m pytest -p 'no:cacheprovider' -q`,
        '--wait',
        '--json',
        ...extra,
      ],
      project.dir,
    );
    return JSON.parse(result.stdout) as TaskOutcome;
  }

  it('prints a completed task attempt by attempt: the turns with their tool calls and replies, the in-attempt test runs, the diff, the verdicts, tokens; --json the same; the planted secret nowhere', async () => {
    completed = await runTask(uniqueId('done'), [readNotes, ...demoScript.coder], []);
    expect(completed.status).toBe('COMPLETED');

    const shown = await taskloop(['show', completed.workflowId]);
    expect(shown.exitCode, shown.all).toBe(0);
    const text = shown.stdout;
    expect(text).toContain(`${completed.workflowId}: COMPLETED after 1 attempt`);
    expect(text).toContain('goal: Fix add in calc.py');
    expect(text).toContain('== attempt 1: PASSED');
    expect(text).toContain('turn 1: Reading the notes first.');
    expect(text).toContain('-> read_file {"path":"NOTES.md"}');
    expect(text).toContain('     | 1\tdeploy token: [redacted]');
    expect(text).toContain('-> replace_in_file {"path":"calc.py","old":"    return a - b","new":"    return b - a"}');
    // Two in-attempt test runs: the first fails (b - a), the second passes.
    expect(text).toContain('in-attempt test runs: 2');
    expect(text).toMatch(/turn 4: run_tests \{\}: tests failed: /);
    expect(text).toMatch(/turn 6: run_tests \{"tests":\["tests\/test_calc.py::test_add"\]\}: tests passed: /);
    expect(text).toContain('diff (1 file, +1 -1):');
    expect(text).toContain('  +    return a + b');
    expect(text).toContain('  -    return a - b');
    expect(text).toMatch(/tests: passed, 2\/2 passed/);
    expect(text).toContain('review: passed');
    expect(text).toContain('judge: passed');
    expect(text).toMatch(/tokens \d+ in \/ \d+ out \(7 model requests\)/);
    expect(shown.all).not.toContain(PLANTED);

    const json = await taskloop([
      'show',
      completed.workflowId,
      '--json',
      '--html',
      path.join(pagesDir, 'completed.html'),
    ]);
    expect(json.exitCode, json.all).toBe(0);
    const { kind, trajectory } = JSON.parse(json.stdout) as { kind: string; trajectory: TaskTrajectory };
    expect(kind).toBe('task');
    const [attempt] = trajectory.attempts;
    expect(attempt?.review?.passed).toBe(true);
    expect(attempt && 'turns' in attempt.transcript && attempt.transcript.turns.map((t) => t.calls[0]?.name)).toEqual([
      'read_file',
      'read_file',
      'replace_in_file',
      'run_tests',
      'replace_in_file',
      'run_tests',
      'finish',
    ]);
    expect(json.stderr).toContain(`wrote ${path.join(pagesDir, 'completed.html')}`);
    // The Web UI's Current Details of the task name the command (asked as the Web UI asks: the metadata query).
    expect(await currentDetails(completed.workflowId)).toContain(
      `**Trajectory**: \`taskloop show ${completed.workflowId}\``,
    );
    expect(json.all).not.toContain(PLANTED);
    pages.completed = path.join(pagesDir, 'completed.html');
    await record('completed', completed);
  });

  it('prints a failed task: the diff of the change that failed its tests, the failed tests, not-reached verdicts, the failure class and cause', async () => {
    failed = await runTask(uniqueId('failed'), wrongTurns(), ['--max-retries', '0', '--retry-window', '0']);
    expect(failed.status).toBe('FAILED');
    const shown = await taskloop(['show', failed.workflowId, '--html', path.join(pagesDir, 'failed.html')]);
    expect(shown.exitCode, shown.all).toBe(0);
    expect(shown.stdout).toContain(`wrote ${path.join(pagesDir, 'failed.html')}`);
    const text = (await taskloop(['show', failed.workflowId])).stdout;
    expect(text).toContain(`${failed.workflowId}: FAILED after 1 attempt`);
    expect(text).toContain('recommendation: code_defect');
    expect(text).toContain('-> replace_in_file {"path":"calc.py","old":"return a - b","new":"return a * b"}');
    expect(text).toContain('in-attempt test runs: 0');
    // The change never reached the review: the test node stored its diff.
    expect(text).toContain('  +    return a * b');
    expect(text).toMatch(/tests: failed, 1\/2 passed, 1 failed/);
    expect(text).toContain('review: not reached');
    expect(text).toContain('judge: not reached');
    expect(text).toMatch(/failure: at test, class code_defect, cause \w+: /);
    pages.failed = path.join(pagesDir, 'failed.html');
    await record('failed', failed);
  });

  it('prints an eval: its report, then each instance as it ran; the page holds the picture and a row per instance', async () => {
    const suite = await makeTinySuite(uniqueId('showeval'));
    const ran = await taskloop([
      'eval',
      suite.suiteFile,
      '--model',
      'oracle',
      '--model',
      'noop',
      '--learning',
      'off',
      '--max-retries',
      '0',
      '--task-queue',
      host.taskQueue,
      '--json',
    ]);
    expect(ran.exitCode, ran.all).toBe(0);
    const report = JSON.parse(ran.stdout) as {
      evalId: string;
      runs: Record<string, { instanceId: string; workflowId: string }[]>;
    };
    oracleShout = report.runs.a1?.find((run) => run.instanceId === 'fix-shout')?.workflowId ?? '';
    expect(oracleShout).not.toBe('');
    evalOutcomeIds = Object.values(report.runs).flatMap((runs) => runs.map((run) => run.workflowId));
    expect(evalOutcomeIds).toHaveLength(4);

    expect(await currentDetails(`eval-${report.evalId}-a1`)).toContain(
      `**Trajectories**: \`taskloop show ${report.evalId}\``,
    );
    const shown = await taskloop(['show', report.evalId]);
    expect(shown.exitCode, shown.all).toBe(0);
    expect(shown.stdout).toContain(`eval ${report.evalId}`);
    for (const workflowId of evalOutcomeIds) expect(shown.stdout).toContain(`${workflowId}: `);
    expect(shown.stdout).toContain('-> replace_in_file {"path":"text.py","old":"s.lower()","new":"s.upper()"}');

    const page = path.join(pagesDir, 'eval.html');
    const html = await taskloop(['show', report.evalId, '--html', page]);
    expect(html.exitCode, html.all).toBe(0);
    const written = await readFile(page, 'utf8');
    expect(written).toContain('<img alt="resolved rate per arm and attempt" src="data:image/svg+xml;base64,');
    for (const workflowId of evalOutcomeIds) expect(written).toContain(`href="#${anchorOf(workflowId)}"`);
    expect(written).not.toMatch(/<script|src="http|href="http/);
    pages.eval = page;
  });

  it("prints a running task's turns so far, from the transcript its running coder's heartbeat names", async () => {
    // A model server that answers the first turn and holds the second: the coder stays mid-run while show reads it.
    const server = await startLocalModelServer([
      { body: chatReply('Reading calc.py first.', [{ name: 'read_file', arguments: { path: 'calc.py' } }]) },
      { body: chatReply('', [{ name: 'finish', arguments: { summary: 'late' } }]), delayMs: 120_000 },
    ]);
    process.env.TASKLOOP_CODER_OPENAI_BASE_URL = `${server.url}/v1`;
    process.env.TASKLOOP_CODER_OPENAI_API_KEY = 'local-test-key';
    const project = await makeCalcProject({}, files);
    const spec = taskSpec({ repo: project.repo, goal: 'Fix add in calc.py', models: { coder: 'openai:local-model' } });
    const handle = await startTestTask(client!.client, host.taskQueue, spec);
    try {
      const shown = await eventually(
        'show to print turn 1 of the running coder',
        async () => {
          const result = await taskloop(['show', handle.workflowId]);
          return result.stdout.includes('turn 1:') ? result : undefined;
        },
        90_000,
      );
      expect(shown.exitCode, shown.all).toBe(0);
      expect(shown.stdout).toContain(`${handle.workflowId}: RUNNING after 1 attempt`);
      expect(shown.stdout).toContain('== attempt 1: RUNNING');
      expect(shown.stdout).toContain(
        'turn 1: Reading calc.py first.\n  -> read_file {"path":"calc.py"}\n     | calc.py (lines 1-6 of 6)',
      );
      expect(shown.stdout).toContain('diff: no diff yet: the coder has not finished');
      expect(shown.stdout).toContain('tests: not yet (the attempt is at code)');
      // The task as sent, whole, before the first turn.
      expect(shown.stdout).toMatch(
        /message before turn 1 \(user, \d+ characters\):\n {2}\| # Goal\n {2}\| Fix add in calc.py/,
      );
    } finally {
      await handle.terminate('seen');
      await server.close();
      delete process.env.TASKLOOP_CODER_OPENAI_BASE_URL;
      delete process.env.TASKLOOP_CODER_OPENAI_API_KEY;
    }
  });

  it('in headless Chromium: the pages show the tool calls, the diff and the verdicts; an eval row opens its trajectory', async () => {
    const browser = await findChromium();
    const shot = (name: string, url: string, waitForText: string[]) =>
      captureLivePage(browser, url, path.join(shotsDir, `trajectory-${name}.png`), {
        width: 960,
        height: 820,
        waitForText,
        timeoutMs: 30_000,
      });
    const done = await shot('completed', pathToFileURL(pages.completed).href, [
      `${completed.workflowId}: COMPLETED`,
      'tool call read_file {"path":"NOTES.md"}',
      'tool call run_tests',
      'in-attempt test runs: 2',
      '+    return a + b',
      'review: passed',
      'judge: passed',
    ]);
    expect(done.text).not.toContain(PLANTED);
    await shot('failed', pathToFileURL(pages.failed).href, [
      `${failed.workflowId}: FAILED`,
      'tool call replace_in_file',
      '+    return a * b',
      'tests: failed',
      'review: not reached',
      'failure: at test, class code_defect',
    ]);
    const overview = await shot('eval', pathToFileURL(pages.eval).href, ['resolved', 'fix-add', 'fix-shout']);
    // The trajectories are in the page but hidden until a row's link names one.
    expect(overview.text).not.toContain('tool call replace_in_file');
    const opened = await captureLivePage(
      browser,
      `${pathToFileURL(pages.eval).href}#${anchorOf(oracleShout)}`,
      path.join(shotsDir, 'trajectory-eval-instance.png'),
      {
        width: 960,
        height: 820,
        waitForText: [`${oracleShout}: COMPLETED`, 'tool call replace_in_file'],
        timeoutMs: 30_000,
      },
    );
    expect(opened.text).toContain('judge: passed');
    // Real pictures, not blank pages: a blank window of this size compresses to a few KB.
    for (const name of ['completed', 'failed', 'eval', 'eval-instance']) {
      const png = await readFile(path.join(shotsDir, `trajectory-${name}.png`));
      expect(png.subarray(1, 4).toString(), name).toBe('PNG');
      expect(png.length, name).toBeGreaterThan(20_000);
    }
  });
});

/** With TASKLOOP_RECORD_TRAJECTORIES=DIR: the outcome, transcripts and diffs as the unit tests' fixtures. */
async function record(name: string, outcome: TaskOutcome): Promise<void> {
  const dir = process.env.TASKLOOP_RECORD_TRAJECTORIES;
  if (!dir) return;
  await mkdir(path.join(dir, name), { recursive: true });
  await writeFile(path.join(dir, name, 'outcome.json'), `${JSON.stringify(outcome, null, 2)}\n`);
  for (const attempt of outcome.attempts) {
    const refs = [attempt.coder?.transcript, attempt.review?.diff ?? attempt.test?.diff];
    for (const ref of refs)
      if (ref) await copyFile(ref.path, path.join(dir, name, `a${attempt.attempt}-${path.basename(ref.path)}`));
  }
}
