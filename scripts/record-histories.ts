// Records the histories of the task workflow's main paths as replay fixtures (test/fixtures/histories/).
// Run after changing workflow code on purpose: `npm run record-histories`; CI replays the committed ones. Histories
// of earlier code (`<name>.before-<change>.json`) are kept beside them and never re-recorded: running tasks started
// before a change must still replay after it.
import { WorkflowFailedError, type WorkflowHandle } from '@temporalio/client';
import { execa } from 'execa';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseTaskSpec, type TaskSpecInput } from '../domain/task-spec.js';
import { startTask } from '../client/tasks/start-task.js';
import { projectRoot } from '../platform/paths.js';
import { outcomeOfFailure } from '../workflows/task/task-failed.js';
import type { TaskOutcome } from '../domain/task-state.js';
import { cancelSignal, pauseSignal, resumeSignal, retryUpdate, stateQuery } from '../workflows/messages.js';
import { startEphemeralStack, type EphemeralStack } from '../workers/ephemeral-stack.js';
import { fixTurns, makeCalcProject, turn, wrongTurns, type ScriptTurn } from '../test/support/calc-project.js';

const outDir = path.join(projectRoot, 'test', 'fixtures', 'histories');

type Drive = (handle: WorkflowHandle) => Promise<void>;
const scenarios: { name: string; coder: ScriptTurn[]; spec?: Partial<TaskSpecInput>; drive?: Drive }[] = [
  { name: 'passes-at-attempt-1', coder: fixTurns() },
  { name: 'fails-then-passes', coder: [...wrongTurns(), ...fixTurns()] },
  { name: 'retries-exhausted', coder: [...wrongTurns(), ...wrongTurns()], spec: { maxRetries: 1 } },
  {
    name: 'path-rules-refuse-test-edit',
    coder: [
      turn('write_file', { path: 'tests/test_calc.py', content: 'def test_nothing():\n    assert True\n' }),
      turn('finish', { summary: 'cheat' }),
      ...fixTurns(),
    ],
  },
  {
    name: 'paused-then-resumed',
    coder: fixTurns(),
    drive: async (handle) => {
      await handle.signal(pauseSignal);
      await until(handle, (status) => status === 'PAUSED');
      await handle.signal(resumeSignal);
    },
  },
  {
    name: 'paused-then-cancelled',
    coder: fixTurns(),
    drive: async (handle) => {
      await handle.signal(pauseSignal);
      await until(handle, (status) => status === 'PAUSED');
      await handle.signal(cancelSignal, { reason: 'recorded cancel' });
    },
  },
  {
    name: 'retry-window-hint',
    coder: [...wrongTurns(), ...fixTurns()],
    spec: { maxRetries: 0, retryWindowMs: 600_000 },
    drive: async (handle) => {
      await until(handle, (status) => status === 'FAILED');
      await handle.executeUpdate(retryUpdate, { args: [{ hint: 'add must return a + b' }] });
    },
  },
];

async function until(handle: WorkflowHandle, predicate: (status: string) => boolean): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (predicate((await handle.query(stateQuery)).status)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${handle.workflowId} never reached the awaited status`);
}

/** A FAILED task fails its workflow (TaskFailed, the outcome in its details); the others return it. */
async function outcomeOf(handle: WorkflowHandle): Promise<TaskOutcome> {
  try {
    return (await handle.result()) as TaskOutcome;
  } catch (error) {
    const outcome = error instanceof WorkflowFailedError ? outcomeOfFailure(error) : undefined;
    if (!outcome) throw error;
    return outcome;
  }
}

async function record(stack: EphemeralStack): Promise<void> {
  await mkdir(outDir, { recursive: true });
  for (const scenario of scenarios) {
    const project = await makeCalcProject({ coder: scenario.coder });
    const parsed = parseTaskSpec({
      id: scenario.name,
      project: 'replay',
      repo: project.repo,
      goal: 'Fix add in calc.py',
      models: { coder: `scripted:${project.scriptFile}` },
      ...scenario.spec,
    });
    if (!parsed.success) throw new Error(parsed.error);
    const { handle } = await startTask(stack.client, parsed.data, { taskQueue: stack.taskQueue });
    await scenario.drive?.(handle);
    const outcome = await outcomeOf(handle);
    // The CLI writes the canonical JSON form of a history, which the SDK's replayer reads back.
    const { stdout } = await execa(stack.cliPath, [
      'workflow',
      'show',
      '--address',
      stack.address,
      '--workflow-id',
      handle.workflowId,
      '--output',
      'json',
    ]);
    await writeFile(path.join(outDir, `${scenario.name}.json`), stdout);
    const events = (JSON.parse(stdout) as { events: unknown[] }).events.length;
    console.log(`${scenario.name}: ${outcome.status} after ${outcome.attempts.length} attempt(s), ${events} events`);
  }
}

const stack = await startEphemeralStack((line) => console.error(line));
try {
  await record(stack);
} finally {
  await stack.stop();
}
