// What the soak checks once every project has ended: each task in the state its script implies, one commit per
// completed task, nothing left behind, and every long-lived workflow's history within the server's limits.
import type { Client, WorkflowExecutionInfo } from '@temporalio/client';
import { execFile } from 'node:child_process';
import { readdir, readlink } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { SoakTask } from './plan.js';
import type { SoakProject } from './tasks-files.js';
import type { SoakHost } from './workers.js';

const run = promisify(execFile);

/** The server warns at 10 Ki events in one history (and fails the workflow at 50 Ki): stay under the warning. */
export const HISTORY_EVENTS_LIMIT = 10_240;

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export async function listAll(client: Client, query: string): Promise<WorkflowExecutionInfo[]> {
  const rows: WorkflowExecutionInfo[] = [];
  for await (const row of client.workflow.list({ query, pageSize: 1000 })) rows.push(row);
  return rows;
}

const attemptOf = (row: WorkflowExecutionInfo) => Number(row.searchAttributes?.Attempt?.[0] ?? NaN);

/** Each task as its script says: COMPLETED (after 1 or 2 attempts), FAILED, or never started (its dependency failed). */
export function checkStates(tasks: SoakTask[], rows: WorkflowExecutionInfo[]): Check {
  const byId = new Map(rows.map((row) => [row.workflowId, row]));
  const wrong: string[] = [];
  for (const task of tasks) {
    const row = byId.get(`task-${task.project}-${task.id}`);
    const state = row ? row.status.name : 'NOT_STARTED';
    if (state !== task.expected)
      wrong.push(`${task.project}/${task.id} (${task.kind}): ${state}, expected ${task.expected}`);
    // A killed host's attempt is taken over by another host as a new attempt: at least the script's attempts.
    else if (row && task.attempts !== undefined && !(attemptOf(row) >= task.attempts))
      wrong.push(
        `${task.project}/${task.id} (${task.kind}): ${attemptOf(row)} attempts, expected ${task.attempts} or more`,
      );
  }
  const right = tasks.length - wrong.length;
  return {
    name: 'tasks in the state their script implies',
    ok: wrong.length === 0,
    detail: `${right} of ${tasks.length}${wrong.length ? `; ${wrong.slice(0, 5).join('; ')}` : ''}`,
  };
}

/** Exactly one commit on taskloop/<id> for a completed task; no branch for one that failed or never started. */
export async function checkCommits(tasks: SoakTask[], projects: SoakProject[]): Promise<Check> {
  const wrong: string[] = [];
  let commits = 0;
  for (const project of projects) {
    const { stdout } = await run('git', [
      '-C',
      project.repo,
      'for-each-ref',
      '--format=%(refname:short)',
      'refs/heads/taskloop/',
    ]);
    const branches = new Set(stdout.split('\n').filter(Boolean));
    for (const task of tasks.filter((candidate) => candidate.project === project.name)) {
      const branch = `taskloop/${task.id}`;
      if (task.expected !== 'COMPLETED') {
        if (branches.has(branch)) wrong.push(`${project.name}/${branch} exists for a task that ${task.expected}`);
        continue;
      }
      const count = branches.has(branch)
        ? Number((await run('git', ['-C', project.repo, 'rev-list', '--count', `main..${branch}`])).stdout.trim())
        : 0;
      commits += count;
      if (count !== 1) wrong.push(`${project.name}/${branch}: ${count} commits`);
    }
  }
  return {
    name: 'one commit per completed task, no branch otherwise',
    ok: wrong.length === 0,
    detail: `${commits} commits${wrong.length ? `; ${wrong.slice(0, 5).join('; ')}` : ''}`,
  };
}

/** No worktree, lock file, process or cgroup of the soak's workers left once they have stopped. */
export async function checkLeftovers(root: string, projects: SoakProject[], hosts: SoakHost[]): Promise<Check> {
  const found: string[] = [];
  for (const project of projects) {
    const { stdout } = await run('git', ['-C', project.repo, 'worktree', 'list', '--porcelain']);
    const extra = stdout.split('\n').filter((line) => line.startsWith('worktree ')).length - 1;
    if (extra > 0) found.push(`${extra} worktree(s) of ${project.name}`);
  }
  for (const host of hosts) {
    const left = await readdir(path.join(host.workDir, 'worktrees')).catch(() => []);
    if (left.length > 0) found.push(`${left.length} folder(s) in ${host.workDir}/worktrees`);
  }
  const { stdout: locks } = await run('find', [root, '-name', '*.lock', '-not', '-path', '*/cluster/*']);
  found.push(
    ...locks
      .split('\n')
      .filter(Boolean)
      .map((file) => `lock ${file}`),
  );
  for (const pid of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
    const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => '');
    if (cwd.startsWith(root) && !cwd.startsWith(path.join(root, 'server'))) found.push(`process ${pid} in ${cwd}`);
  }
  const pids = hosts.flatMap((host) => host.pids);
  for (const dir of ['/sys/fs/cgroup', '/sys/fs/cgroup/pids', '/sys/fs/cgroup/memory']) {
    const names = await readdir(dir).catch(() => [] as string[]);
    found.push(
      ...names
        .filter((name) => pids.some((pid) => name.startsWith(`taskloop-${pid}-`)))
        .map((name) => `cgroup ${dir}/${name}`),
    );
  }
  return {
    name: 'no worktree, branch lock, process or cgroup left',
    ok: found.length === 0,
    detail: found.length ? found.slice(0, 6).join('; ') : 'none',
  };
}

/** The history length of each run: visibility's figure for closed runs, the server's own for running ones. */
export async function historyLengths(
  client: Client,
  rows: WorkflowExecutionInfo[],
): Promise<Pick<WorkflowExecutionInfo, 'historyLength' | 'status'>[]> {
  return Promise.all(
    rows.map(async (row) =>
      row.status.name === 'RUNNING' ? await client.workflow.getHandle(row.workflowId, row.runId).describe() : row,
    ),
  );
}

/** Every run of a long-lived workflow type stays under the history limit; says how many runs continued as new. */
export function checkHistories(what: string, rows: Pick<WorkflowExecutionInfo, 'historyLength' | 'status'>[]): Check {
  const longest = Math.max(0, ...rows.map((row) => row.historyLength));
  const continued = rows.filter((row) => row.status.name === 'CONTINUED_AS_NEW').length;
  return {
    name: `${what} history within ${HISTORY_EVENTS_LIMIT} events`,
    ok: rows.length > 0 && longest < HISTORY_EVENTS_LIMIT,
    detail: `${rows.length} run(s), ${continued} continued as new, longest ${longest} events`,
  };
}
