// Keeps an activity visibly alive while a long step (git, python, a model call) runs, so a worker crash is noticed
// by its heartbeat timeout (20 s by default) instead of its start-to-close timeout (minutes), and a cancel reaches
// it within about a second (a cancel comes back only in the reply to a heartbeat; workers/create-workers.ts).
import { Context } from '@temporalio/activity';

/** How often a running step heartbeats: what bounds a cancel's delay; well under the heartbeat timeouts (2 s or more). */
export const HEARTBEAT_INTERVAL_MS = 1_000;

/**
 * Heartbeats now and every `intervalMs` until `work` settles; returns (or throws) what `work` does. A local activity
 * (the claim) has no heartbeat: its workflow task's timeout notices a crashed worker, and Core would only log a warning.
 */
export async function heartbeatWhile<T>(
  work: () => Promise<T>,
  intervalMs = HEARTBEAT_INTERVAL_MS,
  /** Details to repeat (a heartbeat without them would replace the ones a retry resumes from). */
  details?: unknown,
): Promise<T> {
  const context = Context.current();
  if (context.info.isLocal) return work();
  context.heartbeat(details);
  const timer = setInterval(() => context.heartbeat(details), intervalMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
