// `taskloop show` as text: a headline for the task, then per attempt the model's turns (each tool call with its
// arguments and the start of its reply), the in-attempt test runs, the diff, and what tests, review and judge said.
import { describeLanding } from '../../domain/landing.js';
import { countOf } from '../output/plural.js';
import { describeTokens } from '../../domain/token-counts.js';
import { formatReviewRounds } from './format-review.js';
import { environmentLine } from './environment-line.js';
import { nextLine, testsNotRecorded, toldMessagesText } from './attempt-told.js';
import type { Finding } from '../../domain/records.js';
import type { AttemptTrajectory, TaskTrajectory, Verdict } from '../../domain/trajectory/trajectory.js';

const indent = (text: string, prefix: string) =>
  text
    .split('\n')
    .map((line) => `${prefix}${line}`)
    .join('\n');

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function formatTrajectory(trajectory: TaskTrajectory): string {
  const lines = [
    `${trajectory.workflowId}: ${trajectory.status} after ${countOf(trajectory.attempts.length, 'attempt')} (project ${trajectory.project}, task ${trajectory.taskId})`,
  ];
  if (trajectory.goal) lines.push(`goal: ${trajectory.goal.split('\n')[0] ?? ''}`);
  if (trajectory.coderAgent) lines.push(`coder version: ${trajectory.coderAgent}`);
  if (trajectory.commit) lines.push(`commit ${trajectory.commit.sha.slice(0, 12)} on ${trajectory.commit.branch}`);
  if (trajectory.landing) lines.push(describeLanding(trajectory.landing, Date.now()));
  if (trajectory.reason && trajectory.status !== 'COMPLETED') lines.push(`reason: ${trajectory.reason}`);
  if (trajectory.recommendation) lines.push(`recommendation: ${trajectory.recommendation}`);
  if (trajectory.review) lines.push(...formatReviewRounds(trajectory.review));
  for (const attempt of trajectory.attempts) lines.push('', formatAttempt(attempt));
  // Last, so it is what a person reads when the command ends (as status prints it).
  const next = nextLine(trajectory);
  if (next) lines.push('', next);
  return lines.join('\n');
}

export function attemptHeadline(attempt: AttemptTrajectory): string {
  const candidate = attempt.candidate ? `, candidate ${attempt.candidate}` : '';
  const parts = [`attempt ${attempt.attempt}${candidate}: ${attempt.status}`];
  if (attempt.hostId) parts.push(`on ${attempt.hostId}`);
  if (attempt.durationMs !== undefined) parts.push(seconds(attempt.durationMs));
  parts.push(
    `tokens ${describeTokens({ ...attempt.tokens, requests: attempt.tokens.modelRequests })} (${attempt.tokens.modelRequests} model requests)`,
  );
  return parts.join(', ');
}

function formatAttempt(attempt: AttemptTrajectory): string {
  const lines = [`== ${attemptHeadline(attempt)}`];
  if (attempt.landing) lines.push(describeLanding(attempt.landing));
  if (attempt.hint) lines.push(`hint: ${attempt.hint}`);
  if (attempt.environment) lines.push(environmentLine(attempt.environment));
  if (attempt.coder) {
    const who = [attempt.coder.agent, attempt.coder.model].filter(Boolean).join(', ');
    lines.push(
      `coder: ${attempt.coder.status}${who ? ` (${who})` : ''}: ${attempt.coder.summary || attempt.coder.reason || ''}`,
    );
  }
  lines.push(...toldMessagesText(attempt));
  if ('missing' in attempt.transcript) lines.push(`turns: ${attempt.transcript.missing}`);
  else {
    for (const turn of attempt.transcript.turns) {
      lines.push(`turn ${turn.index}:${turn.text ? ` ${indent(turn.text, '  ').trimStart()}` : ''}`);
      for (const call of turn.calls) {
        lines.push(`  -> ${call.name} ${call.arguments}`);
        if (call.reply !== undefined) lines.push(indent(call.reply, '     | '));
      }
    }
    if (attempt.transcript.turnsLeftOut > 0) lines.push(`(${attempt.transcript.turnsLeftOut} more turns not shown)`);
    const runs = attempt.transcript.testRuns;
    lines.push(`in-attempt test runs: ${runs.length}`);
    for (const run of runs) lines.push(`  turn ${run.turn}: run_tests ${run.arguments}: ${run.result}`);
  }
  if ('missing' in attempt.diff) lines.push(`diff: ${attempt.diff.missing}`);
  else {
    lines.push(`diff (${diffStatText(attempt.diff)}):`);
    lines.push(indent(attempt.diff.text.trimEnd(), '  '));
  }
  if (attempt.test) {
    lines.push(
      `tests: ${attempt.test.outcome}, ${attempt.test.summary}${attempt.test.reason ? `: ${attempt.test.reason}` : ''}`,
    );
    if (attempt.test.output) lines.push(indent(attempt.test.output, '  | '));
  } else lines.push(`tests: ${testsNotRecorded(attempt)}`);
  lines.push(formatVerdict('review', attempt.review), formatVerdict('judge', attempt.judge));
  if (attempt.failure) {
    const cause = attempt.failure.cause ? `, cause ${attempt.failure.cause}` : '';
    lines.push(
      `failure: at ${attempt.failure.node}, class ${attempt.failure.failureClass}${cause}: ${attempt.failure.reason}`,
    );
  }
  return lines.join('\n');
}

function formatVerdict(name: string, verdict: Verdict | undefined): string {
  if (!verdict) return `${name}: not reached`;
  const head = `${name}: ${verdict.passed ? 'passed' : 'rejected'}${verdict.agent ? ` (${verdict.agent})` : ''}`;
  const findings = verdict.findings.map((finding) => `  - ${findingText(finding)}`);
  const evidence = (verdict.evidence ?? []).map((line) => `  evidence: ${line}`);
  return [head, ...findings, ...evidence].join('\n');
}

export const diffStatText = (stat: { files: number; insertions: number; deletions: number }) =>
  `${countOf(stat.files, 'file')}, +${stat.insertions} -${stat.deletions}`;

export function findingText(finding: Finding): string {
  const where = finding.file ? ` (${finding.file}${finding.line ? `:${finding.line}` : ''})` : '';
  return `${finding.rule}${where}: ${finding.message}`;
}
