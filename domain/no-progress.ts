// Signs that a coder run is stuck: the same call again and again, the same reply again and again (with or without a
// call), turn after turn with no change and no test run, or tool calls cut off by the output limit turn after turn.
// The run then ends early as CoderStuck (model_problem) with a reason the next attempt is told, instead of spending
// its remaining steps.

export interface NoProgressLimits {
  /** The same call (tool and arguments) this many times in a row. */
  repeatedCalls: number;
  /** This many turns in a row without a change to the worktree and without a test run. */
  idleTurns: number;
  /** This many turns in a row with a tool call whose arguments were cut off. */
  truncatedTurns: number;
}

export const defaultNoProgressLimits: NoProgressLimits = { repeatedCalls: 3, idleTurns: 8, truncatedTurns: 3 };

export interface ProgressWatch {
  lastCall?: string;
  sameCallCount: number;
  /** The last turn's calls, and how many turns in a row made exactly those (a model replaying one reply). */
  lastTurn?: string;
  sameTurnCount?: number;
  /** The last reply (text and calls), and how many turns in a row sent exactly it. */
  lastReply?: string;
  sameReplyCount?: number;
  idleTurns: number;
  truncatedTurns: number;
}

export const startWatch = (): ProgressWatch => ({ sameCallCount: 0, idleTurns: 0, truncatedTurns: 0 });

export interface TurnFacts {
  /** Each call of the turn as `name {arguments}` (stable key order), in order. */
  calls: string[];
  /** The whole reply, text and calls (replyKey); absent in facts recorded before it was watched. */
  reply?: string;
  changed: boolean;
  ranTests: boolean;
  truncated: boolean;
}

/** The watch after one turn, and why the run should stop when it should. */
export function watchTurn(
  watch: ProgressWatch,
  turn: TurnFacts,
  limits: NoProgressLimits = defaultNoProgressLimits,
): { watch: ProgressWatch; stop?: string } {
  let { lastCall, sameCallCount } = watch;
  for (const call of turn.calls) {
    sameCallCount = call === lastCall ? sameCallCount + 1 : 1;
    lastCall = call;
  }
  const turnKey = turn.calls.join('\n');
  const sameTurnCount = turn.calls.length > 0 && turnKey === watch.lastTurn ? (watch.sameTurnCount ?? 1) + 1 : 1;
  const sameReplyCount =
    turn.reply !== undefined && turn.reply === watch.lastReply ? (watch.sameReplyCount ?? 1) + 1 : 1;
  const next: ProgressWatch = {
    lastCall,
    sameCallCount,
    lastTurn: turnKey,
    sameTurnCount,
    ...(turn.reply === undefined ? {} : { lastReply: turn.reply, sameReplyCount }),
    idleTurns: turn.changed || turn.ranTests ? 0 : watch.idleTurns + 1,
    truncatedTurns: turn.truncated ? watch.truncatedTurns + 1 : 0,
  };
  if (next.truncatedTurns >= limits.truncatedTurns)
    return {
      watch: next,
      stop: `no progress: tool calls were cut off by the output limit ${next.truncatedTurns} turns in a row; make small edits (replace_in_file of a few lines) instead of writing whole files, or raise the agent version's maxTokens`,
    };
  if (sameCallCount >= limits.repeatedCalls)
    return {
      watch: next,
      stop: `no progress: the same call was made ${sameCallCount} times in a row (${clip(lastCall ?? '')}); its reply will not change: read the reply, then do something else`,
    };
  if (sameTurnCount >= limits.repeatedCalls)
    return {
      watch: next,
      stop: `no progress: the same ${turn.calls.length} calls were made ${sameTurnCount} turns in a row (${clip(turnKey.replace(/\n/g, '; '))}); read their replies, then do something else`,
    };
  if (sameReplyCount >= limits.repeatedCalls)
    return {
      watch: next,
      stop: `no progress: the same reply was sent ${sameReplyCount} turns in a row (${clip(turn.reply ?? '')}); the answers to it will not change: call one of the offered tools by its exact name, or do something else`,
    };
  if (next.idleTurns >= limits.idleTurns)
    return {
      watch: next,
      stop: `no progress: ${next.idleTurns} turns in a row without a change to the code or a test run; read less, and make the change the goal asks for early`,
    };
  return { watch: next };
}

/** A reply's key: its text (whitespace collapsed) and its calls, so the same reply sent twice compares equal. */
export function replyKey(
  content: string,
  calls: readonly { name: string; arguments: Record<string, unknown> }[],
): string {
  return [content.replace(/\s+/g, ' ').trim(), ...calls.map((call) => callKey(call.name, call.arguments))].join('\n');
}

/** A call's key: its name and arguments with keys sorted, so the same call written twice compares equal. */
export function callKey(name: string, args: Record<string, unknown>): string {
  const sorted = Object.fromEntries(Object.entries(args).sort(([a], [b]) => a.localeCompare(b)));
  return `${name} ${JSON.stringify(sorted)}`;
}

const clip = (text: string) => (text.length > 120 ? `${text.slice(0, 119)}…` : text);
