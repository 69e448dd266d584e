// What the coder of a later review round is told first: a person read the change and asked for something else. Their
// words stand as theirs, beside the change they read (the worktree starts from it), so the request is applied on top.
import { withTreeGit } from '../git/tree-git.js';
import type { ReviewRequest } from '../task-activity-types.js';

// The change under review is shown whole up to this size; past it the coder reads the files themselves.
const DIFF_CHARS = 12_000;

/** The context section of a review round: the reviewer's words and the change under review (its diff from the base). */
export async function reviewRequestSection(
  worktreePath: string,
  request: ReviewRequest,
): Promise<{ title: string; text: string }> {
  const range = request.baseSha ? [request.baseSha, request.sha] : [`${request.sha}^`, request.sha];
  // Read from the attempt's git folder with no work tree (the worktree is data): no attributes, no textconv.
  const diff = await withTreeGit(worktreePath, (git) =>
    git.text(['diff', '--no-color', '--no-ext-diff', '--no-textconv', ...range]),
  ).catch(() => '');
  const shown = diff.length > DIFF_CHARS ? `${diff.slice(0, DIFF_CHARS)}\n… (the diff goes on: read the files)` : diff;
  const text = [
    `A person reviewed the change below (round ${request.round - 1}, commit ${request.sha.slice(0, 12)}) and asked for changes. Your worktree already holds that change: apply their request on top of it, keep what they did not ask to change, and make the tests pass.`,
    '',
    `The reviewer's words (${request.author}):`,
    ...request.comment
      .trim()
      .split('\n')
      .map((line) => `> ${line}`),
    '',
    'The change under review:',
    '```diff',
    shown.replace(/\n$/, '') || '(no diff)',
    '```',
  ];
  return { title: "A reviewer's request for changes", text: text.join('\n') };
}
