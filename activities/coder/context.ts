// The coder's first messages: rules, goal, repository map, what earlier attempts did and why they failed, the human hint.
import { fitToBudget, type ContextSection } from '../../domain/context-budget.js';
import { STDERR_EXCERPT_CHARS, STDOUT_EXCERPT_CHARS, tailExcerpt } from '../../domain/evidence.js';
import type { AttemptSummary, Finding } from '../../domain/records.js';
import { scrubSecrets } from '../../domain/secrets.js';
import type { ChatMessage } from '../models/types.js';
import { buildSystemPrompt } from './system-prompt.js';
import { coderTools } from './tools/registry.js';

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
    lines.push(
      `Tests: ${c.total} total, ${c.passed} passed, ${c.failed} failed, ${c.errors} errors, ${c.skipped} skipped`,
    );
    lines.push(...fenced('Test stdout (end)', tailExcerpt(summary.test.stdoutExcerpt, STDOUT_EXCERPT_CHARS)));
    lines.push(...fenced('Test stderr (end)', tailExcerpt(summary.test.stderrExcerpt, STDERR_EXCERPT_CHARS)));
    const removed = summary.test.ignoredRemoved ?? [];
    if (removed.length > 0)
      lines.push(
        `Removed before the tests (git ignores them, so the commit would not hold them): ${removed.join(', ')}`,
      );
  } else {
    lines.push('Tests: not run');
  }
  return lines.join('\n');
}

/** Default budget of the first messages, in estimated tokens (the model's whole window is larger). */
export const DEFAULT_CONTEXT_TOKENS = 24_000;

export interface ContextFile {
  path: string;
  excerpt: string;
}

/**
 * Builds the system and first user message of a coder run, with every secret value scrubbed. Past a token budget
 * the oldest attempts go first, then the repo map, relevant files and extra sections; the latest attempt last.
 */
export function buildCoderMessages(input: {
  goal: string;
  repoMap: string;
  previousAttempts: AttemptSummary[];
  hint?: string;
  secretValues: string[];
  /** The system prompt (buildSystemPrompt); the built-in one with every tool when absent. */
  systemPrompt?: string;
  /** Files most likely relevant (see rankRelevantFiles), with an excerpt of each. */
  relevantFiles?: ContextFile[];
  /** Room for skills and adaptations: titled sections added before the closing instruction. */
  extraSections?: { title: string; text: string }[];
  maxContextTokens?: number;
}): ChatMessage[] {
  const sections: ContextSection[] = [
    { text: `# Goal\n${input.goal.trim()}` },
    { text: `# Repository files\n${input.repoMap}`, trimOrder: 100 },
  ];
  if (input.relevantFiles && input.relevantFiles.length > 0) {
    const files = input.relevantFiles.map((file) => fenced(`## ${file.path}`, file.excerpt).join('\n'));
    sections.push({ text: `# Files most likely relevant\n${files.join('\n\n')}`, trimOrder: 200 });
  }
  const attempts = [...input.previousAttempts].sort((a, b) => a.attempt - b.attempt);
  attempts.forEach((summary, index) => {
    const heading = index === 0 ? '# Previous attempts (they did not succeed)\n' : '';
    // Older attempts are trimmed first; the latest one is the last thing to go.
    sections.push({
      text: `${heading}${formatAttempt(summary)}`,
      trimOrder: index === attempts.length - 1 ? 1000 : summary.attempt,
    });
  });
  for (const extra of input.extraSections ?? [])
    sections.push({ text: `# ${extra.title}\n${extra.text.trim()}`, trimOrder: 300 });
  if (input.hint !== undefined && input.hint.trim() !== '') {
    sections.push({ text: `# Hint from a human\n${input.hint.trim()}` });
  }
  sections.push({ text: 'Start by reading the relevant files, make the change with the tools, then call finish.' });
  const fitted = fitToBudget(sections, input.maxContextTokens ?? DEFAULT_CONTEXT_TOKENS);
  const messages: ChatMessage[] = [
    { role: 'system', content: input.systemPrompt ?? buildSystemPrompt(coderTools) },
    { role: 'user', content: fitted.map((section) => section.text).join('\n\n') },
  ];
  return scrubSecrets(messages, input.secretValues);
}
