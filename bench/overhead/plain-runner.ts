// The plain baseline runs in a small process of its own, as a user's script would: run inside the bench process
// (which also hosts a dev server client and a worker, ~500 MB) each of its git and pytest spawns would pay that
// process's fork cost (6 to 13 ms each, measured) and flatter taskloop. Run as a child (`startPlainRunner`), it
// reads one JSON request per line on stdin and answers one JSON line per request on stdout, timed inside itself.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { processTreeCpuMs } from '../lib/worker-process.js';
import { addWorktree, applyEdit, runPlainAttempt, testAndCommit, type PlainProject } from './plain-run.js';

/** The whole attempt, or one of its steps (the Temporal floor's activities run them one by one). */
export type PlainStep = 'attempt' | 'addWorktree' | 'applyEdit' | 'testAndCommit';

const steps: Record<PlainStep, (project: PlainProject, worktree: string, taskId: string) => Promise<void>> = {
  attempt: runPlainAttempt,
  addWorktree,
  applyEdit,
  testAndCommit,
};

interface Request {
  id: number;
  step: PlainStep;
  project: PlainProject;
  worktree: string;
  taskId: string;
}

type Reply = { id: number; ms: number } | { id: number; error: string };

export interface PlainRunner {
  /** One plain attempt in `worktree`; resolves with its wall time in ms, measured in the runner. */
  run(project: PlainProject, worktree: string, taskId: string): Promise<number>;
  /** One step of it, as `run` does the whole. */
  runStep(step: PlainStep, project: PlainProject, worktree: string, taskId: string): Promise<number>;
  /** user + system CPU of the runner's process tree (git, pytest), in ms. */
  cpuMs(): Promise<number>;
  stop(): Promise<void>;
}

export async function startPlainRunner(): Promise<PlainRunner> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const pending = new Map<number, { resolve: (ms: number) => void; reject: (error: Error) => void }>();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => {
    for (const waiting of pending.values()) waiting.reject(new Error('the plain runner exited'));
    pending.clear();
  });
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const reply = JSON.parse(line) as Reply;
    const waiting = pending.get(reply.id);
    pending.delete(reply.id);
    if ('error' in reply) waiting?.reject(new Error(reply.error));
    else waiting?.resolve(reply.ms);
  });
  let nextId = 1;
  const runStep = (step: PlainStep, project: PlainProject, worktree: string, taskId: string) => {
    const id = nextId++;
    const { repo, edit, testCommand } = project;
    const request: Request = { id, step, project: { repo, edit, testCommand }, worktree, taskId };
    return new Promise<number>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      child.stdin!.write(`${JSON.stringify(request)}\n`);
    });
  };
  return {
    run: (project, worktree, taskId) => runStep('attempt', project, worktree, taskId),
    runStep,
    cpuMs: () => processTreeCpuMs(child.pid as number),
    async stop() {
      child.stdin!.end();
      await exited;
    },
  };
}

/** The runner's side: attempts run side by side, each answered when it ends. */
function serve(): void {
  const reply = (message: Reply) => process.stdout.write(`${JSON.stringify(message)}\n`);
  createInterface({ input: process.stdin }).on('line', (line) => {
    const request = JSON.parse(line) as Request;
    const started = performance.now();
    steps[request.step](request.project, request.worktree, request.taskId).then(
      () => reply({ id: request.id, ms: performance.now() - started }),
      (error: unknown) => reply({ id: request.id, error: error instanceof Error ? error.message : String(error) }),
    );
  });
}

if (
  process.argv[1] &&
  path.resolve(process.argv[1]) === fileURLToPath(import.meta.url) &&
  process.argv[2] === '--serve'
)
  serve();
