// replace_in_file: the patch tool; `old` must match one place (exactly, ignoring whitespace, or as the one most
// similar block), else the reply shows the real lines.
import { z } from 'zod';
import { matchEdit, occurrenceWithin, type EditMatch } from '../../../domain/edit-match.js';
import { isTestFile } from '../../../domain/paths.js';
import { refusedTestEdit } from './coaching.js';
import { copiedFromTests, notCodeReply, shownCodeList } from './copied-from-tests.js';
import { defineTool } from './define-tool.js';
import { numbersRemovedNote, withoutReadFileNumbers } from './line-numbers.js';
import { findClosestRegion, formatRegion, occurrenceLines } from './closest-lines.js';
import { describePlaces, filesContaining, onlyPlace } from './files-containing.js';
import { resolveInWorktree, type ResolvedPath } from './path-guard.js';
import type { ToolContext, ToolOutcome } from './types.js';
import { readWorktreeFile, writeWorktreeFile, type WorktreeRead } from './worktree-file.js';

function describeMismatch(path: string, text: string, old: string): string {
  const lines = text.split('\n');
  const found = occurrenceLines(text, old);
  if (found.length > 1) {
    const regions = found.slice(0, 3).map((line) => formatRegion(lines, line - 1, line + 3));
    return [
      `error: 'old' occurs ${found.length} times in ${path} (lines ${found.join(', ')}); it must occur exactly once.`,
      'Include more surrounding lines in old so it matches one place. The occurrences:',
      ...regions.map((region) => `---\n${region}`),
    ].join('\n');
  }
  const closest = findClosestRegion(lines, old);
  return [
    `error: 'old' was not found in ${path}; nothing was changed.`,
    `The closest lines (best match at line ${closest.line}):`,
    closest.region,
    'Copy old exactly from the file (read_file shows it; the numbers before the tab are not part of it) and call replace_in_file again.',
  ].join('\n');
}

/** What the reply says when old did not match exactly: the model should see what was changed. */
function rungNote(match: Extract<EditMatch, { start: number }>): string {
  if (match.kind === 'exact') return '';
  const how =
    match.kind === 'whitespace'
      ? 'old matched these lines only when whitespace is ignored'
      : `old did not match exactly; the most similar block (${Math.round(match.score * 100)}% alike) was replaced`;
  return ` (${how}; read_file shows the result)`;
}

function fail(context: ToolContext, relative: string | undefined, reply: string): ToolOutcome {
  context.telemetry.patchMismatches += 1;
  if (relative !== undefined) context.failedReplacePaths.add(relative);
  return { reply };
}

export const replaceInFileTool = defineTool({
  name: 'replace_in_file',
  capability: 'WRITE_WORKTREE',
  description:
    'Replace one exact, unique occurrence of old with new in a file (indentation included); preferred for edits.',
  args: z.strictObject({
    path: z.string().min(1).describe('File path relative to the repository root.'),
    old: z.string().min(1).describe('The exact text to replace; include enough lines to be unique.'),
    new: z.string().describe('The replacement text.'),
  }),
  onCall(context) {
    context.telemetry.patchAttempts += 1;
  },
  onRefused(context) {
    context.telemetry.patchMismatches += 1;
  },
  async run(args, context) {
    const resolved = await resolveInWorktree(context.root, args.path);
    if (!resolved.success) return fail(context, undefined, resolved.error);
    const oldText = withoutReadFileNumbers(args.old);
    const newText = withoutReadFileNumbers(args.new);
    const edit = {
      old: oldText.text,
      new: newText.text,
      notes: `${oldText.stripped ? numbersRemovedNote('old') : ''}${newText.stripped ? numbersRemovedNote('new') : ''}`,
    };
    // Told at the tool: an edit that changes nothing was answered "replaced 1 occurrence", and the attempt learned
    // nothing from it.
    if (edit.old === edit.new)
      return {
        reply: `error: old and new are the same text, so nothing would change in ${resolved.data.relative}; nothing was changed. Put the corrected code in new.`,
      };
    const read = await readWorktreeFile(context.root, resolved.data);
    if (!read.ok && read.problem === 'missing') return editWhereOldIs(args.path, edit, context);
    return editFile(resolved.data, read, edit, context);
  },
});

interface Edit {
  old: string;
  new: string;
  /** What the reply adds (line numbers taken out of old or new). */
  notes: string;
}

/**
 * The path named does not exist: when `old` occurs exactly once in one file outside the tests, the edit is made there
 * and the reply says so (small models copy their prompt's example path with the right text); else the reply names
 * the files holding `old`.
 */
async function editWhereOldIs(named: string, edit: Edit, context: ToolContext): Promise<ToolOutcome> {
  const places = await filesContaining(context.root, edit.old);
  const only = onlyPlace(places);
  if (only !== undefined) {
    const resolved = await resolveInWorktree(context.root, only.relative);
    if (resolved.success) {
      const read = await readWorktreeFile(context.root, resolved.data);
      const madeBefore = context.telemetry.patchSuccesses;
      const outcome = await editFile(resolved.data, read, edit, context);
      const made = context.telemetry.patchSuccesses > madeBefore;
      return {
        ...outcome,
        reply: `note: '${named}' does not exist; old occurs once, in ${only.relative}, so the edit was ${made ? 'made there. ' : 'taken there: '}${outcome.reply}`,
      };
    }
  }
  const done =
    places.length === 0 && edit.new.trim() !== ''
      ? onlyPlace(await filesContaining(context.root, edit.new))
      : undefined;
  // The edit is in place already (a small model sends its first edit again): nothing to do, and nothing failed, so a
  // finish later in the same reply runs.
  if (done !== undefined)
    return {
      reply: `note: nothing to change: '${named}' does not exist and old occurs in no file, but new is already in ${done.relative} at line ${done.lines[0]} (an earlier edit made it): run_tests to check it, then finish.`,
    };
  const onlyTests = places.length > 0 && places.every((place) => isTestFile(place.relative));
  const shown = shownCodeList(context);
  const where =
    onlyTests && context.coaching?.refuseTestEdits
      ? ` old occurs only in ${describePlaces(places)}, a test file this task does not allow you to change: the tests are right; change the code under test so that they pass.${shown ? ` The code under test shown to you: ${shown}.` : ''}`
      : places.length > 0
        ? ` old occurs in ${describePlaces(places)}: call replace_in_file with one of those paths.`
        : ' old occurs in no file of the repository either: copy the path and the lines from the code shown to you.';
  return fail(context, undefined, `error: '${named}' does not exist; nothing was changed.${where}`);
}

/** Replaces `edit.old` in a file that was read (or says why not). */
async function editFile(
  file: ResolvedPath,
  read: WorktreeRead,
  edit: Edit,
  context: ToolContext,
): Promise<ToolOutcome> {
  const { relative } = file;
  const refusedEdit = refusedTestEdit(context, relative);
  if (refusedEdit !== undefined) return { reply: refusedEdit };
  if (!read.ok) return fail(context, relative, `error: '${relative}' ${read.why}.`);
  const { text } = read;
  // Exact, else ignoring whitespace, else the one most similar block (domain/edit-match.ts).
  const found = matchEdit(text, edit.old, edit.new);
  const { match, note } = found.kind === 'ambiguous' ? inShownCode(relative, text, edit, context) : { match: found };
  // The 1.5B sent its edit, a run_tests with a bad argument and finish in one reply, then all three again: its edit,
  // made the first time, was answered "not found", so the finish never ran.
  const madeBefore = match.kind === 'none' ? madeInThisRun(relative, text, edit, context) : undefined;
  if (madeBefore !== undefined)
    return {
      reply: `note: nothing to change: old is no longer in ${relative}, and it already reads as new at line ${madeBefore} (an earlier edit made it): run_tests to check it, then finish.`,
    };
  const copied = match.kind === 'none' ? await copiedFromTests(edit.old, context) : undefined;
  if (copied !== undefined) return fail(context, relative, notCodeReply(relative, text, copied, context));
  if (match.kind === 'none' || match.kind === 'ambiguous')
    return fail(context, relative, describeMismatch(relative, text, edit.old));
  if (text.slice(match.start, match.end) === match.replacement)
    return {
      reply: `error: the lines old matched at line ${match.line} of ${relative} already read as new; nothing was changed. Read the file and change what the goal asks for.`,
    };
  // An edit whose new holds old (lines added around it), sent again, would add them again: the 1.5B sent one such
  // edit three times running and stacked three copies of the lines it added.
  const madeAt = editMadeAlready(text, match);
  if (madeAt !== undefined)
    return {
      reply: `note: nothing to change: ${relative} already reads as new at line ${madeAt} (an earlier edit made it): run_tests to check it, then finish.`,
    };
  const refused = await writeWorktreeFile(
    context.root,
    file,
    text.slice(0, match.start) + match.replacement + text.slice(match.end),
  );
  if (refused !== undefined) return fail(context, relative, `error: cannot write '${relative}': ${refused}.`);
  context.telemetry.patchSuccesses += 1;
  context.telemetry.mutationOperations += 1;
  context.changedFiles.add(relative);
  return {
    reply: `${note ?? ''}replaced 1 occurrence in ${relative} at line ${match.line}${rungNote(match)}${edit.notes}`,
  };
}

/** The line where `new` stands once in a file this run changed, when `old` is not in it: the edit was made already. */
function madeInThisRun(relative: string, text: string, edit: Edit, context: ToolContext): number | undefined {
  const at = text.indexOf(edit.new);
  if (
    !context.changedFiles.has(relative) ||
    edit.new.trim() === '' ||
    at === -1 ||
    text.indexOf(edit.new, at + 1) !== -1
  )
    return undefined;
  return text.slice(0, at).split('\n').length;
}

/** The line where the text around the match already reads as `new`, when `new` holds the matched text. */
function editMadeAlready(text: string, match: Extract<EditMatch, { start: number }>): number | undefined {
  const within = match.replacement.indexOf(text.slice(match.start, match.end));
  const from = match.start - within;
  if (within === -1 || from < 0 || !text.startsWith(match.replacement, from)) return undefined;
  return text.slice(0, from).split('\n').length;
}

/**
 * An `old` that occurs more than once, exactly once in the code the evidence-first opening showed: the edit goes there,
 * and the reply says where and why (else it stays ambiguous, and the reply names the places as before).
 */
function inShownCode(
  relative: string,
  text: string,
  edit: Edit,
  context: ToolContext,
): { match: EditMatch; note?: string } {
  const chosen = occurrenceWithin(text, edit.old, context.shownCode?.get(relative) ?? []);
  if (chosen === undefined) return { match: { kind: 'ambiguous', lines: [] } };
  const { within } = chosen;
  return {
    match: { kind: 'exact', start: chosen.start, end: chosen.end, replacement: edit.new, line: chosen.line, score: 1 },
    note: `note: old occurs ${chosen.lines.length} times in ${relative} (lines ${chosen.lines.join(', ')}); one of them is in ${within.name} (lines ${within.start}-${within.end}), the code the test evidence shows, so the edit was made there. `,
  };
}
