// `taskloop schedule`: starts (or finds) the project workflow of a tasks file, or a Temporal Schedule that runs it
// periodically; lists and deletes those schedules.
import { SHARED_TASK_QUEUE } from '../../workflows/task-queues.js';
import { intFlag, parseFlags } from '../args.js';
import { withTaskLinesJson } from '../output/json-rows.js';
import { UsageError } from '../cli-errors.js';
import { watchProject } from '../watch/watch-project.js';
import { createTaskBoard } from '../output/task-board.js';
import { formatFollowHints } from '../output/follow-hints.js';
import { formatProjectReport } from '../output/project-report.js';
import { formatScheduleList } from '../output/schedule-list.js';
import { loadProjectPlan } from '../projects/load-plan.js';
import { createProjectSchedule, deleteProjectSchedule, listProjectSchedules } from '../projects/schedules.js';
import { startProject } from '../projects/start-project.js';
import { parseDuration } from '../tasks/duration.js';
import { withTaskClient, type TaskSession } from '../tasks/task-client.js';
import { createReconnect } from '../tasks/reconnect.js';
import { refuseUnreachableProviders } from '../tasks/provider-preflight.js';
import { readAgentRegistry, withCoderChoice } from '../tasks/coder-agent.js';
import { loadTaskloopConfig } from '../config.js';
import { approvalModes } from '../../domain/approval.js';
import type { ProjectPlan } from '../../domain/project/plan.js';
import type { Command } from './command.js';

const help = `Usage: taskloop schedule FILE [--concurrency N] [--task-queue Q] [--wait] [--json]
       taskloop schedule FILE --every INTERVAL [--concurrency N] [--task-queue Q] [--json]
       taskloop schedule --list [--json]
       taskloop schedule --delete NAME

Starts the project of a tasks file (YAML or JSON): its workflow project-<project> runs each task when its
dependencies have completed, at most --concurrency at once, and skips the dependants of failed tasks. The whole
file and every task's repository, base ref and scripted model files are checked first; on any problem nothing
starts. A project is started once: scheduling the same file again (while it runs or after it ended) starts
nothing and says so.

  --concurrency N     task workflows at once (1-32; default: the file's defaults.concurrency, else 2)
  --task-queue Q      queue the workers serve (default $TASKLOOP_TASK_QUEUE or "taskloop")
  --agent VERSION     the coder version of every task (agents/registry.json), over each task's agents.coder,
                      the file's defaults, "agents.coder" of taskloop.config.json and the model's default
  --approval MODE     required: every task waits for a person after its commit (docs/review-and-land.md);
                      none: none does; default: each task's own approval (the file's defaults, else none)
  --wait              show live progress until the project ends, then its report: exit 0 when every task
                      COMPLETED, 1 otherwise
  --every INTERVAL    instead of starting it now, create the Temporal Schedule schedule-<project> that starts
                      the project every INTERVAL (e.g. 30m, 1h, 1d); each run's workflow id is project-<project>
                      followed by the time Temporal stamps on it; a run still going makes the next one skip
  --list              list taskloop's schedules (project, interval, next and recent runs)
  --delete NAME       delete the schedule of project NAME (or the schedule id schedule-NAME); runs go on
  --allow-dirty       start although a task's repository has uncommitted changes (left out, with a warning)
  --skip-provider-check  start even when this shell has no key (or a dead base URL) for an openai:/anthropic:
                      model: the workers call the models with their own environment
  --json              machine-readable output: {"workflowId", "started"}, the report with --wait,
                      {"scheduleId", "created"} with --every, the schedules with --list

Exit codes: 0 started or found (all tasks completed with --wait), 1 a task did not complete (--wait) or the
server failed, 2 invalid tasks file or flags (each problem as file:line:col; nothing started).`;

const options = {
  concurrency: { type: 'string' },
  'task-queue': { type: 'string' },
  wait: { type: 'boolean' },
  every: { type: 'string' },
  list: { type: 'boolean' },
  delete: { type: 'string' },
  json: { type: 'boolean' },
  'skip-provider-check': { type: 'boolean' },
  'allow-dirty': { type: 'boolean' },
  approval: { type: 'string' },
  agent: { type: 'string' },
} as const;

type ScheduleFlags = ReturnType<typeof parseFlags<typeof options>>['values'];

export const scheduleCommand: Command = {
  summary: 'start the project of a tasks file (or a Temporal Schedule of it with --every)',
  help,
  async run(argv) {
    const { values, positionals } = parseFlags('schedule', argv, options, true);
    const json = values.json ?? false;
    const say = (line: string) => (json ? console.error(line) : console.log(line));
    if (values.list || values.delete !== undefined) {
      if (
        positionals.length > 0 ||
        values.every !== undefined ||
        values.wait ||
        (values.list && values.delete !== undefined)
      ) {
        throw new UsageError(
          'taskloop schedule: --list and --delete NAME take no tasks file and no other flag but --json; e.g. taskloop schedule --list',
        );
      }
      return values.list ? listSchedules(json) : deleteSchedule(values.delete as string, json);
    }
    if (positionals.length !== 1 || !positionals[0]) {
      throw new UsageError(
        `taskloop schedule: expected one tasks file, got ${positionals.length} (${positionals.join(' ') || 'none'}); e.g. taskloop schedule tasks.yaml`,
      );
    }
    const file = positionals[0];
    if (values.every !== undefined && values.wait)
      throw new UsageError('taskloop schedule: --wait cannot be used with --every (a schedule has no end to wait for)');
    const everyMs = values.every === undefined ? undefined : parseInterval(values.every);
    const taskQueue = values['task-queue'] ?? process.env.TASKLOOP_TASK_QUEUE ?? SHARED_TASK_QUEUE;
    const plan = await loadCheckedPlan(file, values);
    return withTaskClient((context) =>
      everyMs !== undefined
        ? createSchedule(context, plan, { everyMs, every: values.every ?? '', taskQueue, file, json, say })
        : startProjectOf(context, plan, { taskQueue, wait: values.wait ?? false, json, say }),
    );
  },
};

/** The tasks file checked whole (repositories, refs, model files and, unless skipped, the providers' keys). */
async function loadCheckedPlan(file: string, values: ScheduleFlags): Promise<ProjectPlan> {
  const plan = await loadProjectPlan('schedule', file, process.cwd(), {
    allowDirty: values['allow-dirty'] ?? false,
    warn: (line) => console.error(line),
  });
  if (values.approval !== undefined) {
    const mode = approvalModes.find((known) => known === values.approval);
    if (!mode)
      throw new UsageError(
        `taskloop schedule: --approval must be required or none, got ${JSON.stringify(values.approval)}`,
      );
    for (const task of plan.tasks) task.spec.approval = mode;
  }
  const registry = await readAgentRegistry('schedule');
  const config = await loadTaskloopConfig(process.cwd());
  for (const task of plan.tasks)
    task.spec = withCoderChoice(`schedule: task ${task.spec.id}`, task.spec, registry, {
      flag: values.agent,
      config: config.agents?.coder,
    });
  if (values.concurrency !== undefined)
    plan.concurrency = intFlag('schedule', 'concurrency', values.concurrency, plan.concurrency, 1, 32);
  if (!values['skip-provider-check'])
    await refuseUnreachableProviders(
      'schedule',
      plan.tasks.map((task) => task.spec.models),
    );
  return plan;
}

/** --every: the Temporal Schedule that starts the project periodically (an existing one is left as it is). */
async function createSchedule(
  { client }: TaskSession,
  plan: ProjectPlan,
  options: {
    everyMs: number;
    every: string;
    taskQueue: string;
    file: string;
    json: boolean;
    say: (line: string) => void;
  },
): Promise<number> {
  const { everyMs, taskQueue, say } = options;
  const { scheduleId, created } = await createProjectSchedule(client, plan, {
    everyMs,
    taskQueue,
    tasksFile: options.file,
  });
  if (created)
    say(
      `created schedule ${scheduleId}: starts project ${plan.project} (${plan.tasks.length} tasks) every ${options.every} on task queue ${taskQueue}`,
    );
  else
    say(
      `schedule ${scheduleId} already exists; nothing changed (delete it first to change it: taskloop schedule --delete ${plan.project})`,
    );
  if (options.json) console.log(JSON.stringify({ scheduleId, created }));
  else
    console.log(
      `run it now:  temporal schedule trigger --schedule-id ${scheduleId}\nlist:        taskloop schedule --list`,
    );
  return 0;
}

/** Starts (or finds) the project workflow; with --wait, follows it to its end and prints its report. */
async function startProjectOf(
  { client, target }: TaskSession,
  plan: ProjectPlan,
  options: { taskQueue: string; wait: boolean; json: boolean; say: (line: string) => void },
): Promise<number> {
  const { taskQueue, json, say } = options;
  const { handle, started } = await startProject(client, plan, { taskQueue });
  if (started)
    say(
      `started project ${handle.workflowId} with ${plan.tasks.length} tasks (concurrency ${plan.concurrency}) on task queue ${taskQueue}`,
    );
  else {
    const status = (await handle.describe()).status.name;
    say(`project ${handle.workflowId} already exists (status ${status}); nothing new started`);
  }
  if (!options.wait) {
    if (json) console.log(JSON.stringify({ workflowId: handle.workflowId, started }));
    else console.log((await formatFollowHints(target, handle.workflowId)).replace('taskloop status', 'taskloop watch'));
    return 0;
  }
  say(`watching ${handle.workflowId} (Ctrl-C stops watching, not the project)`);
  // On a terminal every task's line is redrawn in place; elsewhere each change is a plain line.
  const board = createTaskBoard(json ? process.stderr : process.stdout);
  const log = board ? (line: string) => board.print(line) : say;
  // The server may restart while we wait: the calls ride it out and say so (see reconnect.ts).
  const reconnect = createReconnect(target.address, log);
  await watchProject(handle, log, { board, reconnect });
  board?.done();
  const report = await reconnect(() => handle.result());
  console.log(json ? JSON.stringify(withTaskLinesJson(report), null, 2) : formatProjectReport(report));
  return report.counts.COMPLETED === report.total ? 0 : 1;
}

function parseInterval(text: string): number {
  const parsed = parseDuration(text);
  if (!parsed.success || parsed.data < 1000) {
    const why = parsed.success ? `got ${JSON.stringify(text)}, which is under one second` : parsed.error;
    throw new UsageError(`taskloop schedule: --every must be an interval of at least 1s like 30m, 1h or 1d; ${why}`);
  }
  return parsed.data;
}

async function listSchedules(json: boolean): Promise<number> {
  const rows = await withTaskClient(({ client }) => listProjectSchedules(client));
  console.log(json ? JSON.stringify(rows, null, 2) : formatScheduleList(rows));
  return 0;
}

async function deleteSchedule(name: string, json: boolean): Promise<number> {
  const { scheduleId, deleted } = await withTaskClient(({ client }) => deleteProjectSchedule(client, name));
  if (json) console.log(JSON.stringify({ scheduleId, deleted }));
  if (!deleted)
    throw new UsageError(
      `taskloop schedule: there is no schedule ${scheduleId}; see them with taskloop schedule --list`,
    );
  if (!json) console.log(`deleted schedule ${scheduleId}; runs it already started go on`);
  return 0;
}
