// `taskloop run`: validates one task at the edge, starts it (or finds it already started), optionally waits.
import type { Client, WorkflowHandle } from '@temporalio/client';
import { differingSpecFields } from '../../domain/task-spec-diff.js';
import type { TaskSpec } from '../../domain/task-spec.js';
import { TaskStatusKey } from '../../workflows/search-attributes.js';
import { UsageError } from '../cli-errors.js';
import { formatFollowHints } from '../output/follow-hints.js';
import { formatOutcome } from '../output/task-report.js';
import { awaitOutcome } from '../tasks/await-outcome.js';
import { createReconnect } from '../tasks/reconnect.js';
import { refuseUnreachableProviders } from '../tasks/provider-preflight.js';
import { prepareTaskSpec } from '../tasks/prepare-spec.js';
import { readAgentRegistry, withCoderChoice } from '../tasks/coder-agent.js';
import { readRunInput } from '../tasks/run-input.js';
import { checkRunInput, parseRunFlags } from '../tasks/run-flags.js';
import { startTask } from '../tasks/start-task.js';
import { withTaskClient } from '../tasks/task-client.js';
import { loadTaskloopConfig } from '../config.js';
import type { Command } from './command.js';
import path from 'node:path';
import { localEnvironmentCacheDir, resolveEnvironmentName } from '../env/environment-by-name.js';
import { createTaskBoard } from '../output/task-board.js';
import { watchTask } from '../watch/watch-task.js';

const help = `Usage: taskloop run --repo PATH --goal TEXT --model SPEC [flags]

Starts one task: a coder edits the git repository in its own worktree until the tests pass, a review and a judge
agree, and the change is committed on the branch taskloop/<id>. Everything is checked before anything starts.
The same command twice is the same task (the id is derived from the goal and the repository unless --id).

  --repo PATH              the git repository (required)
  --goal TEXT              what to achieve, e.g. "fix #218: cache_key is ignored" (required)
  --model SPEC             the coder: openai:<model>, anthropic:<model>, local:<model> (a llama.cpp server the
                           worker starts, after taskloop model install) or scripted:<file> (path from here)
  --reviewer-model SPEC    a model whose verdict joins the review's policy checks (same forms)
  --judge-model SPEC       a model whose verdict joins the judge's checks
  --agent VERSION          the coder version of agents/registry.json (default: the model's: coder-small-text
                           for local:/small models, else the champion; "agents.coder" in the config)
  --skill-writer-model SPEC  the model that writes skills from recurring failures
                           Defaults for all four (and "budgets", "environment") come from taskloop.config.json in
                           the working folder or $TASKLOOP_CONFIG: {"models": {"coder": "openai:gpt-4o", ...},
                           "budgets": {...}, "environment": "auto"}
  --id ID                  task id (default: slug of the goal + 6 hex chars of a hash of repo and goal)
  --project P              project name (default "default"); the workflow id is task-<project>-<id>
  --base-ref REF           branch, tag or sha to start from (default HEAD)
  --land-on BRANCH         land the passed change on BRANCH through its queue: merged onto its head, tested
                           there, then the branch moved (docs/review-and-land.md; also "landOn" in the config)
  --test-command CMD       split like a shell splits words, no shell run (default "python3 -m pytest")
  --test-env K=V           environment for the tests (repeatable)
  --acceptance TESTID      pytest node id that must pass (repeatable)
  --allow-path P           a path or glob the change may touch (repeatable; default anywhere)
  --allow-test-edits       let the coder edit test files
  --max-retries N          attempts after the first (0-2, default 2; 2 is the loop's cap)
  --max-steps N            coder steps per attempt (1-200, default 30)
  --samples N              candidates an attempt may draw (1-8, default 1): each after the first in a fresh
                           worktree at a warmer temperature, until one passes the tests; every draw's tokens count
  --retry-window DURATION  after failing, accept \`taskloop retry\` this long (e.g. 10m, 30s, 1h; default 0)
  --approval MODE          required: after the commit the task waits for a person (taskloop review, approve,
                           request-changes, reject); none (default, or "approval" of taskloop.config.json)
  --approval-timeout DURATION  how long it waits for an answer (default 7d); then it fails approval_timed_out
  --secret-env NAME        environment variable whose value is scrubbed from logs and records (repeatable)
  --task-queue Q           queue the workers serve (default $TASKLOOP_TASK_QUEUE or "taskloop")
  --wait                   wait for the outcome: exit 0 when COMPLETED, 1 when FAILED or CANCELLED; says within
                           seconds when no worker serves the queue, and keeps waiting
  --json                   machine-readable output: the outcome with --wait, else {"workflowId", "started"}
  --environment auto|NAME  run the tests with the repository's dependencies: auto builds (once, cached) an
                           environment from its dependency files; NAME reuses one that taskloop env build made
                           (taskloop env list); default: "environment" in taskloop.config.json, else the worker's Python
  --allow-dirty            start although the repository has uncommitted changes (they are left out; without
                           this flag such a repository is refused, naming the files)
  --skip-provider-check    start even when this shell has no key (or a dead base URL) for an openai:/anthropic:
                           model: the workers call the models with their own environment

Exit codes: 0 started (or completed with --wait), 1 the task failed, 2 invalid input or an existing id with a
different spec (nothing started).`;

export const runCommand: Command = {
  summary: 'start one task on a repository (--wait to wait for its outcome)',
  help,
  async run(argv) {
    const cwd = process.cwd();
    const request = parseRunFlags(argv, cwd, process.env, await loadTaskloopConfig(cwd));
    const registry = await readAgentRegistry('run');
    if (typeof request.input.environment === 'string' && typeof request.input.repo === 'string')
      request.input.environment = await resolveEnvironmentName(
        request.input.environment,
        path.resolve(cwd, request.input.repo),
        request.environmentOrigin,
        await localEnvironmentCacheDir('run'),
      );
    checkRunInput(request.input);
    const warn = (line: string) => console.error(line);
    const prepared = await prepareTaskSpec(request.input, cwd, { allowDirty: request.allowDirty, warn }).catch(
      (error: unknown) => {
        throw error instanceof UsageError
          ? new UsageError(`taskloop run: ${error.message.replace(/^invalid task: /, '')}`)
          : error;
      },
    );
    const spec = withCoderChoice('run', prepared, registry, request.coderChoice);
    if (!request.skipProviderCheck) await refuseUnreachableProviders('run', [spec.models]);
    // In JSON mode stdout carries only the JSON document; remarks go to stderr.
    const board = request.wait ? createTaskBoard(request.json ? process.stderr : process.stdout) : undefined;
    const say = (line: string) => (board ? board.print(line) : request.json ? console.error(line) : console.log(line));

    return withTaskClient(async ({ client, target }) => {
      const { handle, started } = await startTask(client, spec, { taskQueue: request.taskQueue });
      if (started) say(`started ${handle.workflowId} on task queue ${request.taskQueue}`);
      else {
        await refuseDifferentSpec(client, handle, spec);
        const status = await describeStatus(handle);
        const again =
          status === 'FAILED' || status === 'CANCELLED'
            ? `; to try again: taskloop retry ${handle.workflowId} [--hint TEXT]`
            : '';
        say(`task ${handle.workflowId} already exists (status ${status})${again}`);
      }
      if (!request.wait) {
        if (request.json) console.log(JSON.stringify({ workflowId: handle.workflowId, started }));
        else console.log(await formatFollowHints(target, handle.workflowId));
        return 0;
      }
      say(`waiting for ${handle.workflowId} (Ctrl-C stops waiting, not the task)`);
      // The server may restart while we wait: the calls ride it out and say so (see reconnect.ts).
      const reconnect = createReconnect(target.address, say);
      // On a terminal the task's phase, attempt and time tick in place while it runs.
      const progress = board && watchTask(handle, say, { board, reconnect }).catch(() => undefined);
      const outcome = await awaitOutcome('run', handle, say, undefined, reconnect);
      await progress;
      board?.done();
      console.log(request.json ? JSON.stringify(outcome, null, 2) : formatOutcome(outcome));
      return outcome.status === 'COMPLETED' ? 0 : 1;
    });
  },
};

/** A second run of an existing id must mean the same task: a different spec is refused (exit 2) with the two ways on. */
async function refuseDifferentSpec(client: Client, handle: WorkflowHandle, spec: TaskSpec): Promise<void> {
  const description = await handle.describe();
  const existing = await readRunInput(client, { workflowId: handle.workflowId, runId: description.runId });
  const fields = differingSpecFields(existing.spec, spec);
  if (fields.length === 0) return;
  throw new UsageError(
    `taskloop run: task ${handle.workflowId} already exists with a different ${fields.join(', ')}: ` +
      `to run the existing task again use \`taskloop retry ${handle.workflowId}\`; for this spec pass a new --id`,
  );
}

/** The task's own status (search attribute) while it runs or after it returned an outcome, else the workflow's. */
async function describeStatus(handle: WorkflowHandle): Promise<string> {
  const description = await handle.describe();
  const executionStatus = description.status.name;
  const taskStatus = description.typedSearchAttributes.get(TaskStatusKey);
  return taskStatus && (executionStatus === 'RUNNING' || executionStatus === 'COMPLETED')
    ? taskStatus
    : executionStatus;
}
