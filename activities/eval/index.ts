// The eval's activities, built from the worker's dependencies like the task's.
import { Context } from '@temporalio/activity';
import { heartbeatWhile } from '../heartbeat-while.js';
import { processRecordsDir, resolveWorkerSandbox, sandboxPolicyFor, type WorkerSandbox } from '../sandbox/index.js';
import { verifyInstance, type VerifyInstanceInput } from './verify-instance.js';

export type { VerifyInstanceInput } from './verify-instance.js';

export interface EvalActivityDeps {
  hostId: string;
  workDir: string;
  sandbox?: WorkerSandbox;
}

export function createEvalActivities(deps: EvalActivityDeps) {
  const workerSandbox = deps.sandbox ?? resolveWorkerSandbox({ workDir: deps.workDir });
  return {
    /** Checks an ended instance in a fresh checkout; a failing test is a value, only setup faults throw. */
    verifyEvalInstance(input: VerifyInstanceInput) {
      const context = Context.current();
      return heartbeatWhile(() =>
        verifyInstance(input, {
          workDir: deps.workDir,
          hostId: deps.hostId,
          sandbox: sandboxPolicyFor(workerSandbox),
          processDir: processRecordsDir(deps.workDir),
          heartbeat: (details) => context.heartbeat(details),
          signal: context.cancellationSignal,
        }),
      );
    },
  };
}
