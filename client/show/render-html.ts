// The trajectory page: one self-contained HTML file (styles inline, no script, no request to anywhere), so it opens
// from disk, attaches to an issue or a CI run, and needs no server left running. An eval's page shows its picture
// and its per-instance table; each row's link opens that instance's trajectory further down the same file (CSS
// :target shows the section the address names).
import { countOf } from '../output/plural.js';
import type { EvalReport } from '../../domain/eval/report.js';
import type { AttemptTrajectory, TaskTrajectory, Verdict } from '../../domain/trajectory/trajectory.js';
import { renderReviewRounds } from './format-review.js';
import { attemptHeadline, diffStatText, findingText, seconds } from './format-text.js';
import { environmentLine } from './environment-line.js';
import { nextLine, testsNotRecorded, toldHeading } from './attempt-told.js';

export const escapeHtml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

/** An element id for a workflow id (anchors: letters, digits, '-' and '_' only). */
export const anchorOf = (workflowId: string) => `t-${workflowId.replace(/[^A-Za-z0-9_-]/g, '_')}`;

const style = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px auto; max-width: 1100px; padding: 0 16px; color: #222; }
h1 { font-size: 20px; } h2 { font-size: 17px; margin-top: 28px; } h3 { font-size: 15px; margin: 18px 0 6px; }
pre { background: #f6f8fa; padding: 8px; overflow-x: auto; white-space: pre-wrap; word-break: break-word; margin: 4px 0; }
.turn { border-left: 3px solid #4c78a8; padding: 2px 10px; margin: 8px 0; }
.call { margin: 4px 0 4px 12px; } .call b { color: #4c78a8; }
.reply { color: #444; font-size: 12px; }
.add { color: #116329; } .del { color: #a40e26; } .meta { color: #6e7781; }
.pass { color: #116329; font-weight: bold; } .fail { color: #a40e26; font-weight: bold; }
.attempt { border: 1px solid #d0d7de; border-radius: 6px; padding: 4px 14px 12px; margin: 16px 0; }
table { border-collapse: collapse; } td, th { border: 1px solid #d0d7de; padding: 3px 8px; text-align: left; }
.trajectory { display: none; border-top: 2px solid #4c78a8; } .trajectory:target { display: block; }
.missing { color: #6e7781; font-style: italic; }`;

function page(title: string, body: string): string {
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${style}</style></head>\n<body>\n${body}\n</body></html>\n`;
}

/** One task's page. */
export function renderTaskPage(trajectory: TaskTrajectory): string {
  return page(`taskloop show ${trajectory.workflowId}`, renderTrajectory(trajectory, 'h1'));
}

/** An eval's page: the picture, a table per arm with one row per instance, each row opening its trajectory. */
export function renderEvalPage(input: {
  report: EvalReport;
  svg: string;
  trajectories: ReadonlyMap<string, TaskTrajectory | { missing: string }>;
}): string {
  const { report } = input;
  const parts = [
    `<h1>eval ${escapeHtml(report.evalId)} (suite ${escapeHtml(report.suite)})</h1>`,
    // As an image: an SVG shown through <img> runs nothing, whatever text it holds.
    `<p><img alt="resolved rate per arm and attempt" src="data:image/svg+xml;base64,${Buffer.from(input.svg).toString('base64')}"></p>`,
  ];
  for (const arm of report.arms) {
    parts.push(
      `<h2>${escapeHtml(`${arm.arm.id} ${arm.arm.label}`)}: ${arm.resolved}/${arm.instances} resolved</h2>`,
      '<table><tr><th>instance</th><th>resolved</th><th>task</th><th>attempts</th><th>class</th><th>calls</th><th>tokens</th><th>time</th></tr>',
    );
    for (const run of report.runs[arm.arm.id] ?? [])
      parts.push(
        `<tr><td><a href="#${anchorOf(run.workflowId)}">${escapeHtml(run.instanceId)}</a></td>` +
          `<td class="${run.verification.resolved ? 'pass">yes' : 'fail">no'}</td><td>${escapeHtml(run.taskStatus)}</td>` +
          `<td>${run.attempts}</td><td>${escapeHtml(run.failureClass ?? '')}</td><td>${run.modelCalls}</td>` +
          `<td>${run.inputTokens + run.outputTokens}</td><td>${seconds(run.wallTimeMs)}</td></tr>`,
      );
    parts.push('</table>');
  }
  for (const [workflowId, trajectory] of input.trajectories)
    parts.push(
      `<section class="trajectory" id="${anchorOf(workflowId)}"><p><a href="#">back to the table</a></p>`,
      'missing' in trajectory
        ? `<h2>${escapeHtml(workflowId)}</h2><p class="missing">${escapeHtml(trajectory.missing)}</p>`
        : renderTrajectory(trajectory, 'h2'),
      '</section>',
    );
  return page(`taskloop show eval ${report.evalId}`, parts.join('\n'));
}

function renderTrajectory(trajectory: TaskTrajectory, heading: 'h1' | 'h2'): string {
  const head = `${trajectory.workflowId}: ${trajectory.status}`;
  const facts = [
    `project ${trajectory.project}, task ${trajectory.taskId}, ${countOf(trajectory.attempts.length, 'attempt')}`,
    trajectory.goal && `goal: ${trajectory.goal.split('\n')[0]}`,
    trajectory.coderAgent && `coder version: ${trajectory.coderAgent}`,
    trajectory.commit && `commit ${trajectory.commit.sha.slice(0, 12)} on ${trajectory.commit.branch}`,
    trajectory.status !== 'COMPLETED' && trajectory.reason && `reason: ${trajectory.reason}`,
    trajectory.recommendation && `recommendation: ${trajectory.recommendation}`,
    nextLine(trajectory),
  ].filter((fact): fact is string => typeof fact === 'string' && fact.length > 0);
  return [
    `<${heading} class="${trajectory.status === 'COMPLETED' ? 'pass' : trajectory.status === 'FAILED' ? 'fail' : ''}">${escapeHtml(head)}</${heading}>`,
    `<p>${facts.map(escapeHtml).join('<br>')}</p>`,
    ...(trajectory.review ? [renderReviewRounds(trajectory.review, escapeHtml)] : []),
    ...trajectory.attempts.map(renderAttempt),
  ].join('\n');
}

/** An attempt: what it came to first (verdicts, failure, diff), then how (the in-attempt test runs, the turns). */
function renderAttempt(attempt: AttemptTrajectory): string {
  const parts = [`<div class="attempt"><h3>${escapeHtml(attemptHeadline(attempt))}</h3>`];
  if (attempt.hint) parts.push(`<p>hint: ${escapeHtml(attempt.hint)}</p>`);
  if (attempt.environment) parts.push(`<p>${escapeHtml(environmentLine(attempt.environment))}</p>`);
  if (attempt.coder) {
    const who = [attempt.coder.agent, attempt.coder.model].filter(Boolean).join(', ');
    parts.push(
      `<p>coder: ${escapeHtml(`${attempt.coder.status}${who ? ` (${who})` : ''}: ${attempt.coder.summary || attempt.coder.reason || ''}`)}</p>`,
    );
  }
  parts.push(renderVerdicts(attempt));
  if ('missing' in attempt.diff)
    parts.push('<h3>diff</h3>', `<p class="missing">${escapeHtml(attempt.diff.missing)}</p>`);
  else
    parts.push(
      `<h3>diff (${diffStatText(attempt.diff)})</h3>`,
      `<pre class="diff">${renderDiff(attempt.diff.text)}</pre>`,
    );
  parts.push(renderToldMessages(attempt));
  if ('missing' in attempt.transcript)
    parts.push('<h3>turns</h3>', `<p class="missing">${escapeHtml(attempt.transcript.missing)}</p>`);
  else {
    const runs = attempt.transcript.testRuns;
    parts.push(`<h3>in-attempt test runs: ${runs.length}</h3>`);
    if (runs.length > 0)
      parts.push(
        `<ul>${runs.map((run) => `<li>turn ${run.turn}: run_tests <code>${escapeHtml(run.arguments)}</code>: ${escapeHtml(run.result)}</li>`).join('')}</ul>`,
      );
    parts.push(`<h3>turns: ${attempt.transcript.turns.length + attempt.transcript.turnsLeftOut}</h3>`);
    for (const turn of attempt.transcript.turns) {
      parts.push(`<div class="turn"><div>turn ${turn.index}${turn.text ? `: ${escapeHtml(turn.text)}` : ''}</div>`);
      for (const call of turn.calls)
        parts.push(
          `<div class="call">tool call <b>${escapeHtml(call.name)}</b> <code>${escapeHtml(call.arguments)}</code>` +
            (call.reply === undefined ? '' : `<pre class="reply">${escapeHtml(call.reply)}</pre>`) +
            '</div>',
        );
      parts.push('</div>');
    }
    if (attempt.transcript.turnsLeftOut > 0)
      parts.push(`<p class="missing">${attempt.transcript.turnsLeftOut} more turns not shown</p>`);
  }
  parts.push('</div>');
  return parts.join('\n');
}

/** Every message the model got besides tool replies, each collapsed (the system prompt alone is pages long). */
function renderToldMessages(attempt: AttemptTrajectory): string {
  if ('missing' in attempt.transcript || attempt.transcript.messages.length === 0) return '';
  const items = attempt.transcript.messages.map(
    (message) =>
      `<details class="told"><summary>${escapeHtml(toldHeading(message))}</summary><pre>${escapeHtml(message.content)}</pre></details>`,
  );
  const where = attempt.transcriptPath
    ? [`<p class="meta">the whole transcript: ${escapeHtml(attempt.transcriptPath)}</p>`]
    : [];
  return [`<h3>messages the model got: ${items.length}</h3>`, ...where, ...items].join('\n');
}

function renderVerdicts(attempt: AttemptTrajectory): string {
  const { test, failure } = attempt;
  const items = [
    test
      ? `<li>tests: <span class="${test.outcome === 'passed' ? 'pass' : 'fail'}">${escapeHtml(test.outcome)}</span>, ${escapeHtml(test.summary)}${test.reason ? `: ${escapeHtml(test.reason)}` : ''}${test.output ? `<pre>${escapeHtml(test.output)}</pre>` : ''}</li>`
      : `<li>tests: ${escapeHtml(testsNotRecorded(attempt))}</li>`,
    renderVerdict('review', attempt.review),
    renderVerdict('judge', attempt.judge),
  ];
  if (failure)
    items.push(
      `<li>failure: at ${escapeHtml(failure.node)}, class <b>${escapeHtml(failure.failureClass)}</b>${failure.cause ? `, cause ${escapeHtml(failure.cause)}` : ''}: ${escapeHtml(failure.reason)}</li>`,
    );
  return `<h3>verdicts</h3><ul>${items.join('\n')}</ul>`;
}

function renderVerdict(name: string, verdict: Verdict | undefined): string {
  if (!verdict) return `<li>${name}: not reached</li>`;
  const findings = verdict.findings.map((finding) => `<li>${escapeHtml(findingText(finding))}</li>`);
  const evidence = (verdict.evidence ?? []).map((line) => `<li>evidence: ${escapeHtml(line)}</li>`);
  const list = findings.length + evidence.length > 0 ? `<ul>${[...findings, ...evidence].join('')}</ul>` : '';
  return `<li>${name}: <span class="${verdict.passed ? 'pass">passed' : 'fail">rejected'}</span>${verdict.agent ? ` (${escapeHtml(verdict.agent)})` : ''}${list}</li>`;
}

function renderDiff(diff: string): string {
  return diff
    .split('\n')
    .map((line) => {
      const kind = /^(\+\+\+|---|diff |index |@@)/.test(line)
        ? 'meta'
        : line.startsWith('+')
          ? 'add'
          : line.startsWith('-')
            ? 'del'
            : '';
      return kind ? `<span class="${kind}">${escapeHtml(line)}</span>` : escapeHtml(line);
    })
    .join('\n');
}
