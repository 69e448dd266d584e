// The opening of an evidence-first coder's first message: what the tests said at the base, the goal, then the code
// the traceback and the goal name, whole and numbered; a short list of the Python modules instead of a repository
// tour. Nothing here changes between turns, so the prompt's prefix stays the same for the server's cache.
import type { ContextSection } from '../context-budget.js';
import { fileKind } from '../context-budget.js';
import type { FailureEvidence } from './failure-evidence.js';
import type { Localisation } from './localise.js';

/** What the test run at the base showed, as counts (no duration: the prompt must not change with the machine). */
export interface BaseRun {
  command: readonly string[];
  outcome: 'passed' | 'failed' | 'error' | 'not run';
  counts?: { total: number; passed: number; failed: number; errors: number; skipped: number };
  /** Why it did not run or broke (a timeout, no test command). */
  reason?: string;
}

/** Most modules listed; a repository with more lists these and says how many there are. */
export const MAX_LISTED_MODULES = 40;

const whyWords = {
  traceback: 'in the traceback',
  goal: 'named by the goal',
  called: 'called by the method the goal names',
  'failing test': 'the failing test',
};

function runLine(run: BaseRun): string {
  const command = run.command.join(' ');
  if (run.outcome === 'not run')
    return `The tests were not run before your first turn: ${run.reason ?? 'no test command'}.`;
  const c = run.counts;
  const counts = c
    ? `${c.total} total, ${c.passed} passed, ${c.failed} failed, ${c.errors} errors, ${c.skipped} skipped`
    : 'no counts';
  const why = run.reason ? ` (${run.reason})` : '';
  return `\`${command}\` at the base, before any change: ${run.outcome}${why}: ${counts}.`;
}

/** The evidence section: the run, the failing ids, the assertion lines and the frames in repository files. */
export function evidenceSection(run: BaseRun, evidence: FailureEvidence): string {
  const lines = ['# Test evidence', runLine(run)];
  if (run.outcome === 'passed')
    lines.push('No test fails yet: the goal describes the bug the tests do not show. Fix the code the goal names.');
  if (evidence.failing.length > 0) lines.push('Failing tests:', ...evidence.failing.map((id) => `- ${id}`));
  if (evidence.assertions.length > 0) lines.push('Assertion and error lines:', '```', ...evidence.assertions, '```');
  if (evidence.frames.length > 0)
    lines.push(
      'Traceback frames in this repository (outermost first):',
      ...evidence.frames.map((f) => `- ${f.file}:${f.line}${f.function === undefined ? '' : ` in ${f.function}`}`),
    );
  return lines.join('\n');
}

/** The code section: each snippet under a heading saying where it is and why it is shown. */
export function codeSection(localisation: Localisation): string | undefined {
  const { snippets, omitted } = localisation;
  if (snippets.length === 0 && omitted.length === 0) return undefined;
  const parts = [
    '# Code (numbered as read_file shows it; the numbers and the tab after them are not part of the file)',
  ];
  for (const snippet of snippets) {
    const whole = snippet.whole ? ` of ${snippet.whole.start}-${snippet.whole.end}` : '';
    parts.push(
      `## ${snippet.file} lines ${snippet.start}-${snippet.end}${whole}: ${snippet.name} (${whyWords[snippet.why]})`,
      '```',
      snippet.text,
      '```',
    );
  }
  if (omitted.length > 0)
    parts.push('Also relevant, not shown for room (read_file them):', ...omitted.map((o) => `- ${o}`));
  return parts.join('\n');
}

/** The Python modules (not tests), at most MAX_LISTED_MODULES: where the model can look beyond the code shown. */
export function modulesSection(files: readonly string[]): string | undefined {
  const modules = files.filter((file) => fileKind(file) === 'module');
  if (modules.length === 0) return undefined;
  const shown = modules.slice(0, MAX_LISTED_MODULES);
  const more = modules.length > shown.length ? `\n... and ${modules.length - shown.length} more modules` : '';
  return `# Python modules\n${shown.join('\n')}${more}`;
}

/** The closing instruction of an evidence-first message. */
export const EVIDENCE_CLOSING =
  'Fix the code shown above with the tools: change as few lines as reach the goal (copy old text exactly, without the line numbers), run the tests when you can, then call finish.';

/**
 * The sections that open the message, in order: evidence, goal, code, modules. Evidence and goal are never trimmed;
 * the module list goes first, then the code (already within its own budget).
 */
export function evidenceSections(input: {
  goal: string;
  run: BaseRun;
  evidence: FailureEvidence;
  localisation: Localisation;
  files: readonly string[];
}): ContextSection[] {
  const sections: ContextSection[] = [
    { text: evidenceSection(input.run, input.evidence) },
    { text: `# Goal\n${input.goal.trim()}` },
  ];
  const code = codeSection(input.localisation);
  if (code !== undefined) sections.push({ text: code, trimOrder: 200 });
  const modules = modulesSection(input.files);
  if (modules !== undefined) sections.push({ text: modules, trimOrder: 100 });
  return sections;
}
