// The one JSON shape of every command that acts (retry, pause, resume, cancel, clean, server --detach, model install):
// what was asked, what happened, and the ids it touched, so a script reads each the same way.

export interface ActionJson {
  /** The command as typed, e.g. `retry` or `server --detach`. */
  command: string;
  /** What was asked: the id or target and the flags that shape the action. */
  asked: Record<string, unknown>;
  /** What happened, as one word a script can switch on (e.g. `started`, `accepted`, `signalled`, `would-remove`). */
  happened: string;
  /** The workflow ids, names or paths acted on. */
  ids: string[];
  /** What else the action reports (attempt numbers, addresses, counts); absent when nothing. */
  details?: Record<string, unknown>;
}

/** Prints the action as one JSON line on stdout. */
export function printActionJson(action: ActionJson): void {
  const { details, ...rest } = action;
  console.log(JSON.stringify(details === undefined ? rest : { ...rest, details }));
}
