// `taskloop worker`: one worker host serving the shared queue and its own host queue.
import { parseFlags } from '../args.js';
import type { Command } from './command.js';

const help = `Usage: taskloop worker [--grace 30s] [--sandbox bwrap|none]

Connects to Temporal (TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_API_KEY, TLS variables, TEMPORAL_PROFILE),
serves the shared task queue \`taskloop\` and this host's own queue, and shuts down gracefully on SIGINT/SIGTERM.

  --grace DURATION   how long in-flight activities may finish after a stop signal (default 30s)
  --sandbox MODE     bwrap (default: tests run in bubblewrap) or none (no isolation: explicit opt-in)

Environment: TASKLOOP_WORK_DIR (worktrees and artifacts; default .taskloop/work), TASKLOOP_HOST_ID,
TASKLOOP_EVENTS_FILE (default .taskloop/events.jsonl), TASKLOOP_PYTHON (default python3), TASKLOOP_SANDBOX
(bwrap|none), TASKLOOP_SANDBOX_MEMORY_MB, _PROCESSES, _FILE_SIZE_MB, _CPU_SECONDS, _OUTPUT_MB (default limits).`;

export const workerCommand: Command = {
  summary: 'run a worker that serves tasks (graceful on SIGINT/SIGTERM)',
  help,
  async run(argv) {
    const { values } = parseFlags('worker', argv, { grace: { type: 'string' }, sandbox: { type: 'string' } });
    // Loaded here, not at the top: the worker SDK costs every other command about a second at start-up.
    const { startWorker } = await import('../../workers/main.js');
    await startWorker({ shutdownGraceTime: values.grace, sandbox: values.sandbox });
    return 0;
  },
};
