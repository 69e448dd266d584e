// Reads what the project report says of review and landing: each of the project's tasks that ran (its state while it
// runs, its outcome once closed) and the landing queues its queued changes wait in (their `state` query), then the
// lists of domain/project/review-and-landing.ts. A task or queue that cannot be read is left out, not fatal.
import type { Client } from '@temporalio/client';
import type { ProjectTaskLine } from '../../domain/project/project-task-line.js';
import {
  reviewAndLanding,
  type LandingQueueView,
  type ReviewAndLanding,
  type TaskReviewRecord,
} from '../../domain/project/review-and-landing.js';
import { landerStateQuery } from '../../workflows/land/messages.js';
import type { taskWorkflow } from '../../workflows/task.js';
import { readTask } from '../tasks/read-task.js';

const QUERY_DEADLINE_MS = 10_000;

export async function readReviewAndLanding(
  client: Client,
  tasks: readonly Pick<ProjectTaskLine, 'id' | 'workflowId' | 'status'>[],
  now: number,
): Promise<ReviewAndLanding> {
  // Only a task that ran to its commit can wait for a person, be queued or have landed.
  const ran = tasks.filter((task) => task.status === 'RUNNING' || task.status === 'COMPLETED');
  const records = (await Promise.all(ran.map((task) => readRecord(client, task.workflowId)))).filter(
    (record): record is TaskReviewRecord => record !== undefined,
  );
  const landers = new Set(
    records.flatMap((record) => (record.landing?.status === 'queued' ? [record.landing.lander] : [])),
  );
  const queues = new Map<string, LandingQueueView>();
  for (const lander of landers) {
    const view = await client
      .withDeadline(Date.now() + QUERY_DEADLINE_MS, () => client.workflow.getHandle(lander).query(landerStateQuery))
      .catch(() => undefined);
    if (view) queues.set(lander, view);
  }
  return reviewAndLanding(records, queues, now);
}

async function readRecord(client: Client, workflowId: string): Promise<TaskReviewRecord | undefined> {
  try {
    const handle = client.workflow.getHandle<typeof taskWorkflow>(workflowId);
    const reading = await readTask(client, { handle, description: await handle.describe() });
    const record = 'state' in reading ? reading.state : 'outcome' in reading ? reading.outcome : undefined;
    if (!record) return undefined;
    return {
      taskId: record.taskId,
      workflowId,
      status: record.status,
      ...(record.review && { review: record.review }),
      ...(record.landing && { landing: record.landing }),
    };
  } catch {
    return undefined;
  }
}
