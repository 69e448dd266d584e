// A task's trajectory: per attempt what the model did (turns, tool calls, in-attempt test runs), the change it made,
// and what each node then said of it (tests, review, judge), with the cause, the class, tokens and time. Built from
// the task's record (its outcome, or its state while it runs) and the artifacts its worker stored, read by the caller.
import type { ArtifactRef, CommitResult, Finding, VerdictUsage } from '../records.js';
import type { AttemptRecord, TaskLanding, TaskOutcome, TaskState } from '../task-state.js';
import { coderTelemetryOf, describeCoderAgent } from '../task-state.js';
import { candidateSuffix } from '../samples.js';
import { excerpt } from './excerpt.js';
import { reviewTrajectory, type ReviewTrajectory } from './review-rounds.js';
import { parseTranscript, type TranscriptTurns } from './transcript-turns.js';

/** An artifact's text as the caller could read it, or why it could not (on another host, removed, too big). */
export type ArtifactText = { text: string } | { missing: string };

export interface AttemptArtifacts {
  transcript?: ArtifactText;
  diff?: ArtifactText;
}

export const diffLimit = 20_000;

export interface Verdict {
  passed: boolean;
  agent?: string;
  findings: Finding[];
  evidence?: string[];
}

/**
 * The environment the attempt's tests ran in: built or found (`built`, `setupMs`), or, while the step runs, what it
 * does now (`step`, and the name once its heartbeat said it).
 */
export interface AttemptEnvironment {
  name?: string;
  built?: boolean;
  setupMs?: number;
  step?: 'looking' | 'building' | 'waiting';
  elapsedMs?: number;
}

export interface AttemptTrajectory {
  attempt: number;
  /** The candidate of its attempt, when the task drew samples (domain/samples.ts); set-aside ones are `SET_ASIDE`. */
  candidate?: number;
  status: string;
  hostId?: string;
  hint?: string;
  startedAt: string;
  endedAt?: string;
  durationMs?: number;
  coder?: { status: string; summary: string; reason?: string; agent?: string; model?: string };
  environment?: AttemptEnvironment;
  /** The running attempt's step now (the task's phase), so the page says "tests: running", not "not run". */
  now?: string;
  /** Where the whole transcript is, on the host that ran the coder (the turns here are cut; the messages are not). */
  transcriptPath?: string;
  /** The turns, or why they cannot be shown (no transcript recorded, on another host, unreadable). */
  transcript: TranscriptTurns | { missing: string };
  /** The change as the review saw it (diff.patch), cut to `diffLimit`; or why it is not shown. */
  diff: { text: string; files: number; insertions: number; deletions: number } | { missing: string };
  test?: { outcome: string; summary: string; reason?: string; output?: string };
  review?: Verdict;
  judge?: Verdict;
  failure?: { node: string; failureClass: string; reason: string; cause?: string };
  /** The landing this attempt's change went to, when the queue sent it back. */
  landing?: TaskLanding;
  /** Tokens servers reported; `unmetered`: requests with no usage back, whose tokens are unknown (absent: none). */
  tokens: { input: number; output: number; modelRequests: number; unmetered?: number };
}

export interface TaskTrajectory {
  workflowId: string;
  taskId: string;
  project: string;
  status: string;
  goal?: string;
  reason?: string;
  recommendation?: string;
  commit?: CommitResult;
  /** The landing of the task's change (a task with `landOn`). */
  landing?: TaskLanding;
  /** The review rounds of a task with `approval: required` (review-rounds.ts). */
  review?: ReviewTrajectory;
  /** The coder version that ran and why: "coder-small-text (default for local models)" (absent in older runs). */
  coderAgent?: string;
  attempts: AttemptTrajectory[];
}

/** What a trajectory reads of a task: its outcome once closed, or its state while it runs. */
type TaskRecord = Pick<
  TaskOutcome,
  'workflowId' | 'taskId' | 'project' | 'attempts' | 'commit' | 'landing' | 'review' | 'coderAgent'
> &
  Partial<Pick<TaskState, 'goal' | 'reason' | 'recommendation' | 'phase'>> & { status: TaskState['status'] };

/** The trajectory of a task from its record and the artifacts read for each attempt (keyed by attempt number). */
export function buildTrajectory(task: TaskRecord, artifacts: ReadonlyMap<string, AttemptArtifacts>): TaskTrajectory {
  const review = reviewTrajectory(task.review, task.attempts, task.status);
  return {
    workflowId: task.workflowId,
    taskId: task.taskId,
    project: task.project,
    status: task.status,
    ...(task.goal === undefined ? {} : { goal: task.goal }),
    ...(task.reason === undefined ? {} : { reason: task.reason }),
    ...(task.recommendation === undefined ? {} : { recommendation: task.recommendation }),
    ...(task.commit === undefined ? {} : { commit: task.commit }),
    ...(task.landing === undefined ? {} : { landing: task.landing }),
    ...(review && { review }),
    ...(task.coderAgent === undefined ? {} : { coderAgent: describeCoderAgent(task.coderAgent, task.attempts) }),
    attempts: withCandidates(task.attempts).map(({ record, setAside }) => ({
      ...attemptTrajectory(record, artifacts.get(attemptKey(record)) ?? {}),
      ...(setAside ? { status: 'SET_ASIDE' } : {}),
      ...(!setAside && record.status === 'RUNNING' && record === task.attempts.at(-1) && task.phase
        ? { now: task.phase }
        : {}),
    })),
  };
}

function attemptTrajectory(record: AttemptRecord, artifacts: AttemptArtifacts): AttemptTrajectory {
  const telemetry = coderTelemetryOf(record);
  const verdictUsage = [record.review?.modelUsage, record.judge?.modelUsage, ...(record.verdictsSpent ?? [])];
  const sum = (pick: (usage: VerdictUsage) => number) =>
    verdictUsage.reduce((total, usage) => total + (usage ? pick(usage) : 0), 0);
  const unmetered = (telemetry?.unmeteredModelRequests ?? 0) + sum((usage) => usage.unmeteredModelRequests ?? 0);
  const ended = record.endedAt ? Date.parse(record.endedAt) - Date.parse(record.startedAt) : undefined;
  return {
    attempt: record.attempt,
    ...(record.candidate ? { candidate: record.candidate } : {}),
    status: record.status,
    ...(record.hostId ? { hostId: record.hostId } : {}),
    ...(record.hint ? { hint: record.hint } : {}),
    ...(record.landing ? { landing: record.landing } : {}),
    ...(record.environment ? { environment: { ...record.environment } } : {}),
    startedAt: record.startedAt,
    ...(record.endedAt ? { endedAt: record.endedAt } : {}),
    ...(ended !== undefined && Number.isFinite(ended) ? { durationMs: ended } : {}),
    ...(record.coder
      ? {
          coder: {
            status: record.coder.status,
            summary: record.coder.summary,
            ...(record.coder.reason ? { reason: record.coder.reason } : {}),
            ...(record.coder.agent ? { agent: record.coder.agent } : {}),
            ...(record.coderModel ? { model: record.coderModel } : {}),
          },
        }
      : {}),
    ...(record.coder?.transcript ? { transcriptPath: record.coder.transcript.path } : {}),
    transcript: transcriptOf(record, artifacts.transcript),
    diff: diffOf(record, artifacts.diff),
    ...(record.test
      ? {
          test: {
            outcome: record.test.outcome,
            summary: `${record.test.counts.passed}/${record.test.counts.total} passed, ${record.test.counts.failed} failed, ${record.test.counts.errors} errors (exit ${String(record.test.exitCode)}, ${(record.test.durationMs / 1000).toFixed(1)} s)`,
            ...(record.test.reason ? { reason: record.test.reason } : {}),
            ...(record.test.outcome === 'passed'
              ? {}
              : { output: excerpt(`${record.test.stdoutExcerpt}\n${record.test.stderrExcerpt}`.trim(), 2_000) }),
          },
        }
      : {}),
    ...(record.review
      ? { review: { passed: record.review.passed, agent: record.review.agent, findings: record.review.findings } }
      : {}),
    ...(record.judge
      ? {
          judge: {
            passed: record.judge.passed,
            agent: record.judge.agent,
            findings: record.judge.findings,
            evidence: record.judge.evidence,
          },
        }
      : {}),
    ...(record.failure
      ? {
          failure: {
            node: record.failure.node,
            failureClass: record.failure.failureClass,
            reason: record.failure.reason,
            ...(record.failure.cause ? { cause: record.failure.cause.kind } : {}),
          },
        }
      : {}),
    tokens: {
      input: (telemetry?.inputTokens ?? 0) + sum((usage) => usage.inputTokens),
      output: (telemetry?.outputTokens ?? 0) + sum((usage) => usage.outputTokens),
      modelRequests: (telemetry?.modelRequests ?? 0) + sum((usage) => usage.modelRequests),
      ...(unmetered > 0 ? { unmetered } : {}),
    },
  };
}

/** Where an attempt's (or a candidate's) artifacts are kept in the map the caller reads: `1`, `1c2`. */
export const attemptKey = (record: Pick<AttemptRecord, 'attempt' | 'candidate'>): string =>
  `${record.attempt}${candidateSuffix(record.candidate)}`;

/**
 * Every coder run of the task in order, as records: each attempt's candidates set aside (samples), then the attempt's
 * own. A candidate's record holds what it kept of its run: no test output, no review.
 */
export function withCandidates(attempts: readonly AttemptRecord[]): { record: AttemptRecord; setAside: boolean }[] {
  return attempts.flatMap((record) => [
    ...(record.candidates ?? []).map((lost) => ({
      record: {
        attempt: record.attempt,
        candidate: lost.candidate,
        status: record.status,
        startedAt: lost.startedAt,
        endedAt: lost.endedAt,
        envRetries: 0,
        failure: lost.failure,
        ...(lost.hostId ? { hostId: lost.hostId } : {}),
        ...(lost.coder ? { coder: lost.coder } : {}),
        ...(lost.coderSpent ? { coderSpent: lost.coderSpent } : {}),
        ...(record.coderModel ? { coderModel: record.coderModel } : {}),
        ...(lost.test
          ? { test: { ...lost.test, cases: [], casesTruncated: false, stdoutExcerpt: '', stderrExcerpt: '' } }
          : {}),
      },
      setAside: true,
    })),
    { record, setAside: false },
  ]);
}

/** The artifacts a trajectory shows of one attempt, for the caller to read: the transcript and the diff. */
export function artifactRefsOf(record: AttemptRecord): { transcript?: ArtifactRef; diff?: ArtifactRef } {
  const diff = record.review?.diff ?? record.test?.diff;
  return { ...(record.coder?.transcript ? { transcript: record.coder.transcript } : {}), ...(diff ? { diff } : {}) };
}

/** The turns from the transcript read: the record's, or, while the coder runs, the one its heartbeat names. */
function transcriptOf(record: AttemptRecord, read: ArtifactText | undefined): AttemptTrajectory['transcript'] {
  if (!read)
    return record.coder?.transcript
      ? { missing: `not read: ${record.coder.transcript.path}` }
      : { missing: 'no transcript recorded (the coder did not finish a turn)' };
  if ('missing' in read) return read;
  const parsed = parseTranscript(read.text);
  return parsed.success
    ? parsed.data
    : { missing: `${parsed.error} (${record.coder?.transcript?.path ?? 'transcript'})` };
}

function diffOf(record: AttemptRecord, read: ArtifactText | undefined): AttemptTrajectory['diff'] {
  // The review stores the change it read; a change that failed its tests is stored by the test node.
  const ref = artifactRefsOf(record).diff;
  if (!ref && record.status === 'RUNNING')
    return {
      missing: record.coder
        ? 'the coder is done: its change is being tested now (its diff is stored when the tests end)'
        : 'no diff yet: the coder has not finished',
    };
  if (!ref)
    return {
      missing: record.review
        ? 'no diff stored (the change was empty)'
        : 'no diff stored: the attempt ended before its change was staged',
    };
  if (!read) return { missing: `not read: ${ref.path}` };
  if ('missing' in read) return read;
  return { text: excerpt(read.text, diffLimit), ...diffStatOf(read.text) };
}

/** Files, added and removed lines of a unified diff (header lines `+++`/`---` not counted). */
export function diffStatOf(diff: string): { files: number; insertions: number; deletions: number } {
  let files = 0;
  let insertions = 0;
  let deletions = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('diff --git ')) files += 1;
    else if (line.startsWith('+') && !line.startsWith('+++ ')) insertions += 1;
    else if (line.startsWith('-') && !line.startsWith('--- ')) deletions += 1;
  }
  return { files, insertions, deletions };
}
