// Human-readable text of a task: its live state (the `state` query) or its result (TaskOutcome).
import { waitingRound } from '../../domain/approval.js';
import { candidateLines } from './candidate-lines.js';
import { describeCoderAgent, type AttemptRecord, type TaskOutcome, type TaskState } from '../../domain/task-state.js';
import { nextStepFor } from '../../domain/next-step.js';
import type { TelemetrySummary } from '../../domain/telemetry.js';
import { formatTable } from './table.js';
import { describeTokens } from '../../domain/token-counts.js';

const MAX_REASON_CHARS = 100;

/** The result of a closed task: one headline, the attempts, the telemetry. */
export function formatOutcome(outcome: TaskOutcome): string {
  const attempts = `${outcome.attempts.length} attempt${outcome.attempts.length === 1 ? '' : 's'}`;
  const commit = outcome.commit
    ? `; commit ${outcome.commit.sha.slice(0, 12)} on ${outcome.commit.branch}${outcome.commit.remote ? `, pushed to ${outcome.commit.remote}` : ''}`
    : '';
  const why = outcome.status === 'COMPLETED' ? '' : `: ${outcome.reason ?? 'no reason recorded'}`;
  const recommendation = outcome.recommendation ? `\nrecommendation: ${outcome.recommendation}` : '';
  const next = nextStepFor(outcome);
  return [
    `${outcome.workflowId}: ${outcome.status} after ${attempts}${commit}${why}${recommendation}`,
    outcome.coderAgent ? `coder version: ${describeCoderAgent(outcome.coderAgent, outcome.attempts)}` : '',
    formatAttempts(outcome.attempts),
    formatTelemetry(outcome.telemetry),
    // Last, so it is what a person reads when the command ends.
    next ? `next: ${next}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

/** The live state of a running task: status, phase, attempt, each attempt, telemetry. */
export function formatState(state: TaskState): string {
  const paused =
    state.status === 'PAUSE_REQUESTED'
      ? `: finishing ${state.phase}, stops before its next node`
      : state.paused && state.status !== 'PAUSED'
        ? ' (pause requested: stops before its next node)'
        : '';
  const lines = [
    `${state.workflowId}: ${state.status}${paused}, phase ${state.phase}, attempt ${state.attempt}`,
    `goal: ${firstLine(state.goal)}`,
  ];
  if (state.coderAgent) lines.push(`coder version: ${describeCoderAgent(state.coderAgent, state.attempts)}`);
  if (state.retryWindowEndsAt) lines.push(`failed; accepts \`taskloop retry\` until ${state.retryWindowEndsAt}`);
  if (state.status === 'WAITING_FOR_HINT')
    lines.push(`waiting for a hint: taskloop retry ${state.workflowId} --hint "..."`);
  lines.push(...formatApprovalWait(state));
  lines.push(formatAttempts(state.attempts), formatTelemetry(state.telemetry));
  return lines.filter(Boolean).join('\n');
}

/** While a change awaits approval: the round, its commit and branch, until when, and the commands that answer. */
function formatApprovalWait(state: TaskState): string[] {
  const round = state.status === 'AWAITING_APPROVAL' ? waitingRound(state.review) : undefined;
  if (!round) return [];
  const id = state.workflowId;
  return [
    `awaiting approval of round ${round.round}: ${round.sha.slice(0, 12)} on ${round.branch}, since ${round.waitingSince} (until ${round.timeoutAt})`,
    `answer: taskloop review, or taskloop approve ${id} | request-changes ${id} --comment "..." | reject ${id} --reason "..."`,
  ];
}

export function formatAttempts(attempts: AttemptRecord[]): string {
  if (attempts.length === 0) return '';
  const rows = attempts.map((record) => [
    String(record.attempt),
    record.status,
    record.failure?.node ?? '',
    record.failure?.failureClass ?? '',
    clip(record.failure?.reason ?? (record.hint ? `hint: ${record.hint}` : '')),
  ]);
  const table = formatTable(['attempt', 'status', 'node', 'class', 'reason'], rows);
  // Files the test node removed are a sign of a coder hiding something from the review: said, never buried.
  const removed = attempts.flatMap(({ attempt, test }) =>
    test?.ignoredRemoved?.length
      ? [`attempt ${attempt}: removed before its tests, as git ignores them: ${test.ignoredRemoved.join(', ')}`]
      : [],
  );
  // A local server may answer as its own model whatever was asked for: said, so a wrong model name is noticed.
  const answered = attempts.flatMap(({ attempt, coder, coderModel }) =>
    coder?.answeredBy?.length
      ? [`attempt ${attempt}: asked for ${coderModel ?? 'the coder model'}, answered by ${coder.answeredBy.join(', ')}`]
      : [],
  );
  return [table, ...candidateLines(attempts), ...removed, ...answered].join('\n');
}

export function formatTelemetry(telemetry: TelemetrySummary): string {
  return (
    `telemetry: ${telemetry.model_requests_per_task} model requests${failedRequests(telemetry)}, patches ${telemetry.patch_successes}/${telemetry.patch_attempts} applied` +
    ` (${telemetry.patch_mismatch_count} mismatched), ${telemetry.write_file_fallbacks} write-file fallbacks,` +
    ` tokens ${describeTokens({
      input: telemetry.input_tokens,
      output: telemetry.output_tokens,
      requests: telemetry.model_requests_per_task,
      unmetered: telemetry.unmetered_model_requests,
    })}`
  );
}

/** Failed requests, waits for the server and text tool calls, when there were any (records before them have none). */
function failedRequests(telemetry: TelemetrySummary): string {
  const parts = [
    telemetry.failed_model_requests ? `${telemetry.failed_model_requests} failed` : '',
    telemetry.model_server_waits ? `${telemetry.model_server_waits} waits for the server` : '',
    telemetry.text_tool_calls ? `${telemetry.text_tool_calls} tool calls as text` : '',
  ].filter(Boolean);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

function clip(text: string): string {
  const line = firstLine(text);
  return line.length <= MAX_REASON_CHARS ? line : `${line.slice(0, MAX_REASON_CHARS - 1)}…`;
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}
