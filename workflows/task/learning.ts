// Learning around attempts: before one, the adaptations chosen from this task's earlier failures and the project's
// history (read from what the project learned, held by its learning workflow); after a failure, that workflow is told
// (which feeds what it learned) and a mirror line is written for humans. Learning is best effort: it never fails,
// cancels or holds up the task.
import { CancellationScope, log } from '@temporalio/workflow';
import type { Adaptation, HistoryEntry } from '../../domain/learning/adaptations.js';
import { planAdaptations } from '../../domain/learning/attempt-adaptations.js';
import { maxFailureFiles } from '../../domain/learning/failure-limits.js';
import type { AttemptRecord } from '../../domain/task-state.js';
import { bookkeepingWithSummary } from './proxies.js';
import type { TaskRun } from './task-run.js';

const EVIDENCE_CHARS = 2000;

/** `history`: the project's history of similar tasks, read by the claim (absent when it could not be read). */
export function chooseAttemptAdaptations(run: TaskRun, history: HistoryEntry[] = []): Adaptation[] {
  if (run.spec.learning === false) return [];
  return planAdaptations({ goal: run.spec.goal, attempts: run.state.attempts.slice(0, -1), history });
}

/** Also appends the attempt's pending events to the sink, in the same workflow task as the learning's calls. */
export async function learnFromFailure(run: TaskRun, record: AttemptRecord): Promise<void> {
  const failure = record.failure;
  if (!failure) return CancellationScope.nonCancellable(() => run.flushEvents());
  const { spec } = run;
  const pattern = record.test?.patterns?.[0]?.type;
  const files = record.coder?.changedFiles ?? [];
  const host = record.hostId === undefined ? {} : { host: record.hostId };
  const history = {
    project: spec.project,
    workflowId: run.state.workflowId,
    attempt: record.attempt,
    taskId: spec.id,
    files,
    patterns: pattern ? [pattern] : [],
    ...host,
  };
  const event = {
    workflowId: run.state.workflowId,
    taskId: spec.id,
    attempt: record.attempt,
    description: spec.goal,
    failureClass: failure.failureClass,
    ...(pattern ? { pattern } : {}),
    reason: failure.reason,
    evidence: (record.test?.stdoutExcerpt ?? '').slice(-EVIDENCE_CHARS),
    files: files.slice(0, maxFailureFiles),
    ...host,
  };
  // The skill writer defaults to the coder's model; without a usable one the skill is distilled.
  const skillWriter = { skillWriterModel: spec.models.skillWriter ?? spec.models.coder };
  // The local activities start in one activation, so they share one workflow task.
  await CancellationScope.nonCancellable(() =>
    Promise.all([
      run.flushEvents(),
      pattern && spec.learning !== false
        ? bestEffort('mirror the failure in the history file', () =>
            bookkeepingWithSummary('recordTaskHistory', `failure history (${pattern}), attempt ${record.attempt}`, {
              repoPath: spec.repo,
              record: history,
            }),
          )
        : undefined,
      // A task with learning off feeds the learning workflow nothing: its project (an eval arm's) never gets a skill.
      spec.learning === false
        ? undefined
        : bestEffort('report the failure to the learning workflow', () =>
            bookkeepingWithSummary(
              'reportFailure',
              `report ${failure.failureClass} at ${failure.node} to learning, attempt ${record.attempt}`,
              { project: spec.project, role: 'coder', ...skillWriter, event, secretEnvNames: spec.secretEnvNames },
            ),
          ),
    ]),
  );
}

async function bestEffort(what: string, action: () => Promise<unknown>): Promise<void> {
  try {
    await action();
  } catch (error) {
    log.warn(`could not ${what}; the task goes on`, { error: String(error) });
  }
}
