// Records a learning workflow's histories as replay fixtures (test/fixtures/histories/learning*.json): three similar
// failures, a skill distilled from the first two, and a continue-as-new after two signals, so the second run starts
// from a carried state. Run after changing the learning workflow on purpose: `npx tsx scripts/record-learning-history.ts`
// (writes learning.run-1.json and learning.run-2.json). `learning.before-rename.*` were recorded by the release before
// the rename (type reflectionWorkflow, state carried under `memory`) and are never re-recorded.
import { execa } from 'execa';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { signalFailure } from '../activities/learning/signal-failure.js';
import { projectRoot } from '../platform/paths.js';
import { learningQuery } from '../workflows/learning/messages.js';
import { startEphemeralStack, type EphemeralStack } from '../workers/ephemeral-stack.js';

const outDir = path.join(projectRoot, 'test', 'fixtures', 'histories');
const name = process.argv[2] ?? 'learning';

function event(n: number) {
  return {
    workflowId: `task-replay-${n}`,
    taskId: `t${n}`,
    attempt: 1,
    description: 'Fix the rounding of totals in the invoice module',
    failureClass: 'code_defect',
    pattern: 'wrong_constant',
    reason: 'tests failed',
    evidence: 'E   assert 10.0 == 10.5',
    files: ['invoice.py'],
  };
}

async function record(stack: EphemeralStack): Promise<void> {
  const workflow = {
    project: 'replay',
    role: 'coder',
    learning: { enabled: true, roles: ['coder'] },
    continueAsNewAfter: 2,
  };
  let handle;
  for (const n of [1, 2, 3])
    handle = await signalFailure(stack.client, { taskQueue: stack.taskQueue, workflow, event: event(n) });
  const current = stack.client.workflow.getHandle(handle!.workflowId);
  for (let i = 0; i < 300; i++) {
    const learned = await current.query(learningQuery).catch(() => undefined);
    if (learned && learned.history.length === 3 && learned.skills.length === 1) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const firstRunId = handle!.signaledRunId;
  const latest = (await current.describe()).runId;
  if (latest === firstRunId) throw new Error('the workflow did not continue as new');
  for (const [suffix, runId] of [
    ['run-1', firstRunId],
    ['run-2', latest],
  ] as const) {
    const { stdout } = await execa(stack.cliPath, [
      'workflow',
      'show',
      '--address',
      stack.address,
      '--workflow-id',
      handle!.workflowId,
      '--run-id',
      runId,
      '--output',
      'json',
    ]);
    await writeFile(path.join(outDir, `${name}.${suffix}.json`), stdout);
    console.log(`${name}.${suffix}: ${(JSON.parse(stdout) as { events: unknown[] }).events.length} events`);
  }
}

const stack = await startEphemeralStack((line) => console.error(line));
try {
  await record(stack);
} finally {
  await stack.stop();
}
