// The running activity's heartbeat and cancellation, in the shape the side-effect functions take them (so those
// functions never import the activity context themselves and run alike in tests).
import { Context } from '@temporalio/activity';

export function heartbeatAndSignal(): { heartbeat: (details?: unknown) => void; signal: AbortSignal } {
  const context = Context.current();
  return { heartbeat: (details?: unknown) => context.heartbeat(details), signal: context.cancellationSignal };
}
