// The worker's side of the task workflow's event sink (workflows/task/proxies.ts): the events a workflow activation
// emitted are appended to the JSON-lines file before its workflow task completes. Not during replay: those events
// were written when the history was made.
import type { InjectedSinks } from '@temporalio/worker';
import { appendEvents } from '../activities/events-sink.js';
import type { TaskEventSinks } from '../workflows/task/proxies.js';

export function taskEventSinks(eventsFile: string): InjectedSinks<TaskEventSinks> {
  return {
    taskEvents: {
      // An error here is logged by the worker; the events stay in the workflow's state (the state query).
      record: { fn: (_info, events) => appendEvents(eventsFile, events), callDuringReplay: false },
    },
  };
}
