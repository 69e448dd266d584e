// The activity a workflow calls to forward a failure to the learning workflow: workflows cannot signal-with-start themselves.
import { Context } from '@temporalio/activity';
import path from 'node:path';
import { signalFailure } from './signal-failure.js';
import type { FailureEventInput } from '../../domain/learning/failure-event.js';
import { scrubSecrets } from '../../domain/secrets.js';
import { resolveSecretValues } from '../secret-values.js';

export interface ReportFailureInput {
  project: string;
  /** The agent role that failed, e.g. `coder`. */
  role: string;
  event: FailureEventInput;
  skillWriterModel?: string;
  learning?: { enabled: boolean; roles: string[] };
  threshold?: number;
  minCount?: number;
  /** Default: the queue this activity runs on (the shared queue). */
  taskQueue?: string;
  /** The failing task's declared secrets: scrubbed from the event before the learning workflow (and its skills) keep it. */
  secretEnvNames?: string[];
}

/**
 * The learning gate from the worker's environment: TASKLOOP_LEARNING=off stops learning; TASKLOOP_LEARNING_ROLES
 * (comma-separated, `*` for all) names the roles that may learn; by default the coder learns.
 */
export function learningFromEnv(env: NodeJS.ProcessEnv): { enabled: boolean; roles: string[] } {
  const enabled = !['off', 'false', '0', 'no'].includes((env.TASKLOOP_LEARNING ?? '').trim().toLowerCase());
  const roles = (env.TASKLOOP_LEARNING_ROLES ?? 'coder')
    .split(',')
    .map((role) => role.trim())
    .filter(Boolean);
  return { enabled, roles };
}

/** The default skills folder of a project on a worker. */
export function defaultSkillsDir(workDir: string, project: string): string {
  return path.join(workDir, 'skills', project);
}

/** Signals (with start) the learning workflow of the project and role; returns its workflow id. */
export async function reportFailure(input: ReportFailureInput): Promise<{ workflowId: string }> {
  // The worker's own client (SDK >= 1.13 passes it to every activity over the worker's connection).
  const context = Context.current();
  const handle = await signalFailure(context.client, {
    taskQueue: input.taskQueue ?? context.info.taskQueue,
    // Learning serves every task of the project: a skill distilled from this event is shown to tasks that do not
    // declare this one's secrets, so the event leaves here without them (its goal, reason and evidence included).
    event: scrubSecrets(input.event, resolveSecretValues(input.secretEnvNames ?? [])),
    workflow: {
      project: input.project,
      role: input.role,
      learning: input.learning ?? learningFromEnv(process.env),
      ...(input.skillWriterModel === undefined ? {} : { skillWriterModel: input.skillWriterModel }),
      ...(input.threshold === undefined ? {} : { threshold: input.threshold }),
      ...(input.minCount === undefined ? {} : { minCount: input.minCount }),
    },
  });
  return { workflowId: handle.workflowId };
}
