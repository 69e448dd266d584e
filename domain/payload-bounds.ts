// Bounds on what an activity returns, whatever the repository holds: a change of a hundred thousand files must not
// make a result near Temporal's payload limit (2 MB; DESIGN.md's "no payload over ~100 KB"). Lists of paths and of
// findings are cut here and summarised; the whole of them lives in the artifacts (the diff.patch of the change).
import type { Finding } from './records.js';

/** Paths kept in a result's file list; the count of the rest is said beside it. */
export const MAX_LISTED_PATHS = 200;
/** Findings kept in a result; one more says how many were left out and of which rules. */
export const MAX_FINDINGS = 50;
/** Characters kept of one finding's message (a path is at most 4096 bytes; a message names one or two). */
export const MAX_FINDING_TEXT = 2000;
/** Characters kept of one listed path. */
export const MAX_PATH_TEXT = 1024;

/**
 * Characters a person's words may hold — a retry hint, a reviewer's comment or reason — as a goal may (task-spec.ts):
 * they are stored in the task's history and sent to the model, so a 60 MB paste is refused, not retried as a fault.
 */
export const MAX_PERSON_TEXT = 20_000;

/** Why `text` given as `what` is too long, or undefined when it fits. */
export function personTextTooLong(what: string, text: string | undefined): string | undefined {
  if (text === undefined || text.length <= MAX_PERSON_TEXT) return undefined;
  return `${what} is ${text.length} characters; at most ${MAX_PERSON_TEXT} are taken (it is kept in the task's history and sent to the model): shorten it, or commit the long part to the repository and name the file`;
}

/** `text` cut to `max` characters, saying so. */
export function cutText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

/** The first MAX_LISTED_PATHS paths (each cut to MAX_PATH_TEXT), and how many were left out. */
export function boundPaths(paths: readonly string[]): { paths: string[]; omitted: number } {
  return {
    paths: paths.slice(0, MAX_LISTED_PATHS).map((file) => cutText(file, MAX_PATH_TEXT)),
    omitted: Math.max(0, paths.length - MAX_LISTED_PATHS),
  };
}

/**
 * At most `max` findings, their texts cut; past the bound, one more finding of the first left-out rule says how many
 * were left out and of which rules (so the cause table still reads a rule from it).
 */
export function boundFindings(findings: readonly Finding[], max = MAX_FINDINGS): Finding[] {
  const kept = findings.slice(0, max).map(cutFinding);
  const rest = findings.slice(max);
  if (rest.length === 0) return kept;
  const rules = [...new Set(rest.map((finding) => finding.rule))];
  const message = `and ${rest.length} more findings (${rules.slice(0, 10).join(', ')}): the whole change is in its diff.patch`;
  return [...kept, { rule: rest[0]?.rule ?? 'change_too_large', message }];
}

function cutFinding(finding: Finding): Finding {
  return {
    ...finding,
    message: cutText(finding.message, MAX_FINDING_TEXT),
    ...(finding.file === undefined ? {} : { file: cutText(finding.file, MAX_PATH_TEXT) }),
  };
}
