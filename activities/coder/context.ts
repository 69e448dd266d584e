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

/**
 * What the next attempt should not do again, from what this one did: said plainly, because a small model given only
 * the evidence replayed attempt 1 word for word.
 */
function notToRepeat(summary: AttemptSummary): string[] {
  const items: string[] = [];
  const changed = summary.changedFiles;
  if (changed !== undefined && changed.length === 0)
    items.push('ending without changing a file: make the change the goal asks for with replace_in_file');
  const reason = summary.failureReason ?? '';
  if (/no progress: the same (call|reply|\d+ calls)/.test(reason))
    items.push('the same call or reply again: its answer will not change');
  if (/no tool named|unknown tool/i.test(reason)) items.push('calling a tool by a name that is not in the tool list');
  if (changed && changed.length > 0 && summary.test && summary.test.counts.failed + summary.test.counts.errors > 0)
    items.push(`the same change to ${changed.join(', ')}: the tests still failed with it`);
  return items;
}

function formatAttempt(summary: AttemptSummary): string {
  // A sentence, not a name-like heading: models copied "Attempt 1: REWORK_REQUIRED, failure class: …" as a tool name.
  const failure = summary.failureClass ? `, ${summary.failureClass}` : '';
  const lines = [`## What attempt ${summary.attempt} did (ended ${summary.status}${failure})`];
  if (summary.failureReason) lines.push(`Why it failed: ${summary.failureReason}`);
  if (summary.changedFiles !== undefined)
    lines.push(
      `Files it changed: ${summary.changedFiles.length > 0 ? summary.changedFiles.join(', ') : 'none (it changed no file)'}`,
    );
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
  const avoid = notToRepeat(summary);
  if (avoid.length > 0) lines.push('Do not repeat:', ...avoid.map((item) => `- ${item}`));
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
  /** Sections that replace the goal, the repository map and the relevant files (an evidence-first version's). */
  opening?: ContextSection[];
  /** The closing instruction, when the version has its own. */
  closing?: string;
}): ChatMessage[] {
  const sections: ContextSection[] = input.opening
    ? [...input.opening]
    : [{ text: `# Goal\n${input.goal.trim()}` }, { text: `# Repository files\n${input.repoMap}`, trimOrder: 100 }];
  if (!input.opening && input.relevantFiles && input.relevantFiles.length > 0) {
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
  sections.push({
    text: input.closing ?? 'Start by reading the relevant files, make the change with the tools, then call finish.',
  });
  const fitted = fitToBudget(sections, input.maxContextTokens ?? DEFAULT_CONTEXT_TOKENS);
  const messages: ChatMessage[] = [
    { role: 'system', content: input.systemPrompt ?? buildSystemPrompt(coderTools) },
    { role: 'user', content: fitted.map((section) => section.text).join('\n\n') },
  ];
  return scrubSecrets(messages, input.secretValues);
}
