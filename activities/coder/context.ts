// The coder's first messages: rules, goal, repository map, what earlier attempts did and why they failed, the human hint.
import { STDERR_EXCERPT_CHARS, STDOUT_EXCERPT_CHARS, tailExcerpt } from '../../domain/evidence.js';
import type { AttemptSummary, Finding } from '../../domain/records.js';
import { scrubSecrets } from '../../domain/secrets.js';
import type { ChatMessage } from '../models/types.js';
import { coderSystemPrompt } from './system-prompt.js';

export { buildRepoMap } from './repo-map.js';

export type { AttemptSummary } from '../../domain/records.js';

function formatFinding(finding: Finding): string {
  const where = finding.file ? ` (${finding.file}${finding.line === undefined ? '' : `:${finding.line}`})` : '';
  return `- [${finding.rule}]${where} ${finding.message}`;
}

function formatFindings(title: string, findings: Finding[]): string[] {
  return findings.length === 0 ? [`${title}: none`] : [`${title}:`, ...findings.map(formatFinding)];
}

function fenced(label: string, text: string): string[] {
  return text.trim() === '' ? [`${label}: (empty)`] : [`${label}:`, '```', text.replace(/\n$/, ''), '```'];
}

function formatAttempt(summary: AttemptSummary): string {
  const failure = summary.failureClass ? `, failure class: ${summary.failureClass}` : '';
  const lines = [`## Attempt ${summary.attempt}: ${summary.status}${failure}`];
  if (summary.failureReason) lines.push(`Why it failed: ${summary.failureReason}`);
  lines.push(`Coder summary: ${summary.coderSummary?.trim() || '(none)'}`);
  lines.push(...formatFindings('Review findings', summary.reviewFindings));
  lines.push(...formatFindings('Judge findings', summary.judgeFindings));
  if (summary.test) {
    const c = summary.test.counts;
    lines.push(`Tests: ${c.total} total, ${c.passed} passed, ${c.failed} failed, ${c.errors} errors, ${c.skipped} skipped`);
    lines.push(...fenced('Test stdout (end)', tailExcerpt(summary.test.stdoutExcerpt, STDOUT_EXCERPT_CHARS)));
    lines.push(...fenced('Test stderr (end)', tailExcerpt(summary.test.stderrExcerpt, STDERR_EXCERPT_CHARS)));
  } else {
    lines.push('Tests: not run');
  }
  return lines.join('\n');
}

/** Builds the system and first user message of a coder run, with every secret value scrubbed. */
export function buildCoderMessages(input: {
  goal: string;
  repoMap: string;
  previousAttempts: AttemptSummary[];
  hint?: string;
  secretValues: string[];
}): ChatMessage[] {
  const sections = [`# Goal\n${input.goal.trim()}`, `# Repository files\n${input.repoMap}`];
  if (input.previousAttempts.length > 0) {
    const attempts = [...input.previousAttempts].sort((a, b) => a.attempt - b.attempt).map(formatAttempt);
    sections.push(`# Previous attempts (they did not succeed)\n${attempts.join('\n\n')}`);
  }
  if (input.hint !== undefined && input.hint.trim() !== '') {
    sections.push(`# Hint from a human\n${input.hint.trim()}`);
  }
  sections.push('Start by reading the relevant files, make the change with the tools, then call finish.');
  const messages: ChatMessage[] = [
    { role: 'system', content: coderSystemPrompt },
    { role: 'user', content: sections.join('\n\n') },
  ];
  return scrubSecrets(messages, input.secretValues);
}
