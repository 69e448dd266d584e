// taskloop's own metrics and phase log lines, recorded from workflow code through the SDK's metric meter and
// logger (both replay-safe: nothing is emitted again when a history replays). Called from a few places.
import { log, metricMeter } from '@temporalio/workflow';
import { priceOf } from '../domain/budgets.js';
import type { Budgets } from '../domain/budgets.js';
import type { AttemptRecord, TaskPhase, TaskState } from '../domain/task-state.js';

const tasks = metricMeter.createCounter('taskloop_tasks', '1', 'tasks that ended, by final status');
const attempts = metricMeter.createCounter(
  'taskloop_attempts',
  '1',
  'attempts that ended, by status, failure class and failure pattern',
);
const nodeDuration = metricMeter.createHistogram(
  'taskloop_node_duration_seconds',
  'float',
  's',
  'time spent in each node of an attempt',
);
const modelRequests = metricMeter.createCounter('taskloop_model_requests', '1', 'model requests, by provider and role');
const modelTokens = metricMeter.createCounter(
  'taskloop_model_tokens',
  '1',
  'model tokens, by provider, role and direction',
);
const modelCost = metricMeter.createCounter(
  'taskloop_model_cost_microusd',
  'uUSD',
  'model cost in millionths of a US dollar, by provider and role',
);

const phaseStarts = new WeakMap<TaskState, { phase: TaskPhase; at: number }>();

/** One INFO line per phase change, and the time the previous node took into its histogram. */
export function observePhase(state: TaskState, phase: TaskPhase, at?: number): void {
  const previous = phaseStarts.get(state);
  if (previous?.phase === phase) return;
  // A start reported by an activity (another host's clock) never goes back before the phase it ends began.
  const begins = Math.min(Date.now(), Math.max(at ?? Date.now(), previous?.at ?? 0));
  phaseStarts.set(state, { phase, at: begins });
  if (previous && previous.phase !== 'waiting' && previous.phase !== 'done') {
    nodeDuration.record((begins - previous.at) / 1000, { node: previous.phase });
  }
  log.info(`task ${state.taskId}: ${previous ? `${previous.phase} -> ` : ''}${phase}`, {
    taskId: state.taskId,
    attempt: state.attempt,
    node: phase,
  });
}

/** What observeAttempt reads of a task's run (a TaskRun fits it; naming only this keeps task-run.ts out of here). */
export interface AttemptToObserve {
  currentAttempt: AttemptRecord;
  budgets: Pick<Budgets, 'prices'>;
  spec: { models: { coder: string } };
}

/** The current attempt ended: its status, class and pattern, and what its model calls used and cost. */
export function observeAttempt(run: AttemptToObserve): void {
  const record = run.currentAttempt;
  const { prices } = run.budgets;
  const pattern = record.test?.patterns?.[0]?.type ?? 'none';
  attempts.add(1, { status: record.status, class: record.failure?.failureClass ?? 'none', pattern });
  const usages = [
    record.coder && { role: 'coder', modelSpec: record.coderModel ?? run.spec.models.coder, ...record.coder.telemetry },
    record.review?.modelUsage && { role: 'reviewer', ...record.review.modelUsage },
    record.judge?.modelUsage && { role: 'judge', ...record.judge.modelUsage },
  ];
  for (const usage of usages) {
    if (!usage || usage.modelRequests === 0) continue;
    const tags = { provider: usage.modelSpec.split(':')[0] ?? 'unknown', role: usage.role };
    const price = priceOf(usage.modelSpec, prices);
    modelRequests.add(usage.modelRequests, tags);
    modelTokens.add(usage.inputTokens, { ...tags, direction: 'input' });
    modelTokens.add(usage.outputTokens, { ...tags, direction: 'output' });
    modelCost.add(
      Math.round(usage.inputTokens * price.inputPerMTokUsd + usage.outputTokens * price.outputPerMTokUsd),
      tags,
    );
  }
}

/** A task ended with this status. */
export function observeTaskEnd(state: TaskState): void {
  observePhase(state, 'done');
  tasks.add(1, { status: state.status });
  log.info(`task ${state.taskId}: ${state.status} after ${state.attempt} attempt(s)`, {
    taskId: state.taskId,
    attempt: state.attempt,
    node: 'done',
  });
}
