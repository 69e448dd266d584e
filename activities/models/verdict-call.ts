// A reviewer or judge activity's model calls: counted as they are sent (a try retried by Temporal continues the
// counts of the tries before it, kept in its heartbeat details), aborted when the activity is cancelled, an
// unreachable server waited out up to the task's bound; a failure carries the counts to the workflow.
import { Context } from '@temporalio/activity';
import type { CoderTelemetry, VerdictUsage } from '../../domain/records.js';
import { emptyTelemetry } from '../../domain/telemetry.js';
import { withFailureDetails } from '../coder/spending.js';
import { heartbeatWhile } from '../heartbeat-while.js';
import { verdictUsageOf } from './ask-verdict.js';
import { serverWaitBoundMs } from './provider-env.js';

/** What one verdict activity's model calls share. */
export interface VerdictCall {
  /** Updated in place as each request is sent. */
  counters: CoderTelemetry;
  signal?: AbortSignal;
  waitBoundMs: number;
  /** Sends the counts now: called after each failed request, so a try Temporal retries finds them. */
  heartbeat?: () => void;
}

/** The heartbeat details of a verdict activity: the counts so far, which a retried try continues. */
export interface VerdictHeartbeat {
  verdictCounters: CoderTelemetry;
}

/** The details a failed verdict activity's ApplicationFailure carries (workflows/task/verdict-spending.ts). */
export interface VerdictSpending {
  verdictUsage: VerdictUsage;
}

/** Runs a verdict activity's model work with heartbeats carrying its counts; a failure carries them too. */
export async function runVerdictCalls<T>(
  model: { modelSpec: string; serverWaitMs?: number },
  work: (call: VerdictCall) => Promise<T>,
): Promise<T> {
  const context = Context.current();
  const earlier = (context.info.heartbeatDetails as Partial<VerdictHeartbeat> | undefined)?.verdictCounters;
  const counters = { ...emptyTelemetry(), ...earlier };
  // Mutated in place by the calls: every heartbeat sends the counts as they are then.
  const details: VerdictHeartbeat = { verdictCounters: counters };
  const signal = context.cancellationSignal;
  // A local activity has no heartbeat (heartbeat-while.ts).
  const heartbeat = context.info.isLocal ? undefined : () => context.heartbeat(details);
  const call = { counters, signal, heartbeat, waitBoundMs: serverWaitBoundMs(model.serverWaitMs, process.env) };
  try {
    return await heartbeatWhile(() => work(call), undefined, details);
  } catch (error) {
    const spending: VerdictSpending = { verdictUsage: { modelSpec: model.modelSpec, ...verdictUsageOf(counters) } };
    throw withFailureDetails(error, [spending], signal);
  }
}
