// Reads a task's trajectory: its record through Temporal (the outcome once closed, the `state` query while it runs)
// and each attempt's transcript and diff from this machine's disk (read-artifact.ts).
import type { Client } from '@temporalio/client';
import type { AttemptRecord } from '../../domain/task-state.js';
import { scrubSecrets, secretValuesIn } from '../../domain/secrets.js';
import {
  artifactRefsOf,
  attemptKey,
  buildTrajectory,
  withCandidates,
  type AttemptArtifacts,
  type TaskTrajectory,
} from '../../domain/trajectory/trajectory.js';
import { WorkFailed } from '../cli-errors.js';
import { readTask } from '../tasks/read-task.js';
import type { ResolvedTask } from '../tasks/resolve-task.js';
import { readArtifactText } from './read-artifact.js';

/** The trajectory of the task `resolved` names; WorkFailed when its record cannot be read (said why). */
export async function loadTrajectory(
  client: Client,
  resolved: ResolvedTask,
  env: NodeJS.ProcessEnv = process.env,
): Promise<TaskTrajectory> {
  const reading = await readTask(client, resolved);
  if ('error' in reading)
    throw new WorkFailed(`taskloop show: ${reading.workflowId}: workflow ${reading.executionStatus}: ${reading.error}`);
  const record = 'state' in reading ? reading.state : reading.outcome;
  // A closed task's outcome holds no goal: its summary (the goal's first line) stands in.
  const goal =
    'state' in reading ? reading.state.goal : await resolved.description.staticSummary().catch(() => undefined);
  const artifacts = await readAttemptArtifacts(record.attempts, env);
  // While the coder runs, its turns so far are in the transcript its heartbeat names (the record has none yet).
  const running = record.attempts.at(-1);
  const live = 'live' in reading ? reading.live : undefined;
  if (running && !running.coder && live?.transcriptPath)
    artifacts.set(attemptKey(running), {
      transcript: await readArtifactText(
        { hostId: running.hostId ?? 'unknown', path: live.transcriptPath, bytes: 0 },
        env,
      ),
    });
  const trajectory = buildTrajectory({ ...record, ...(goal ? { goal } : {}) }, artifacts);
  // The environment step running now is the last attempt's (its record names the environment once the step ends).
  const environment = 'environment' in reading ? reading.environment : undefined;
  const last = trajectory.attempts.at(-1);
  if (environment && last && !last.environment) last.environment = { ...environment };
  return scrubbed(trajectory, env);
}

/** Each attempt's (and each candidate's) transcript and diff, read side by side. */
export async function readAttemptArtifacts(
  attempts: readonly AttemptRecord[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<Map<string, AttemptArtifacts>> {
  const read = await Promise.all(
    withCandidates(attempts).map(async ({ record }): Promise<[string, AttemptArtifacts]> => {
      const refs = artifactRefsOf(record);
      const [transcript, diff] = await Promise.all([
        refs.transcript && readArtifactText(refs.transcript, env),
        refs.diff && readArtifactText(refs.diff, env),
      ]);
      return [attemptKey(record), { ...(transcript ? { transcript } : {}), ...(diff ? { diff } : {}) }];
    }),
  );
  return new Map(read);
}

/** The whole trajectory scrubbed with this process's secrets too (the worker scrubbed what it stored with its own). */
export function scrubbed(trajectory: TaskTrajectory, env: NodeJS.ProcessEnv = process.env): TaskTrajectory {
  const { declared, detected } = secretValuesIn(env, []);
  return scrubSecrets(trajectory, [...declared, ...detected]);
}
