// Landing a task's change on a target branch through the branch's queue (workflows/land): what a change in the queue
// is, what the lander found for it, and the rules the queue keeps. Pure: no Node built-ins, no clock.
import type { TestRunResult } from './records.js';

/**
 * Why `name` cannot be a branch to land on, or undefined when it can: git's own rules for a ref's name
 * (`git check-ref-format --branch`), so a bad `landOn` fails when the task starts, not when it lands.
 */
export function branchNameProblem(name: string): string | undefined {
  const bare = name.startsWith('refs/heads/') ? name.slice('refs/heads/'.length) : name;
  if (bare === '') return 'is empty';
  if (bare === 'HEAD' || bare === '@') return 'names whatever is checked out, not a branch';
  if (bare.startsWith('-')) return 'starts with "-"';
  if (bare.startsWith('/') || bare.endsWith('/') || bare.includes('//')) return 'has an empty part between "/"';
  if (bare.endsWith('.')) return 'ends with "."';
  if (bare.includes('..')) return 'holds ".."';
  if (bare.includes('@{')) return 'holds "@{"';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f~^:?*[\\]/.test(bare)) return 'holds a space, a control character or one of ~ ^ : ? * [ \\';
  for (const part of bare.split('/')) {
    if (part.startsWith('.')) return `has a part starting with "." (${JSON.stringify(part)})`;
    if (part.endsWith('.lock')) return `has a part ending in ".lock" (${JSON.stringify(part)})`;
  }
  return undefined;
}

/** The branch's short name: `refs/heads/main` and `main` land on the same branch. */
export function shortBranch(name: string): string {
  return name.startsWith('refs/heads/') ? name.slice('refs/heads/'.length) : name;
}

/**
 * The lander's workflow id: one per repository and target branch. The repository (a path or a URL, which may hold
 * credentials) is named by a hash, so no path or URL reaches the id; the branch is kept readable.
 */
export function landerWorkflowId(repo: string, target: string): string {
  return `land-${shortBranch(target).replace(/[^A-Za-z0-9._-]/g, '_')}-${hashText(repo)}`;
}

/** FNV-1a over the text's UTF-16 units, twice with different seeds: 16 hex digits, stable across hosts. */
function hashText(text: string): string {
  const fnv = (seed: number) => {
    let hash = seed >>> 0;
    for (let index = 0; index < text.length; index += 1) {
      hash ^= text.charCodeAt(index);
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
    return hash.toString(16).padStart(8, '0');
  };
  return fnv(0x811c9dc5) + fnv(0x01000193);
}

/** What the task's tests need to run on a merged tree: the test node's settings, as the task's spec gives them. */
export interface LandingTests {
  command: string[];
  testEnv: Record<string, string>;
  timeoutMs: number;
  secretEnvNames: string[];
  sandbox?: { sandbox?: 'bwrap' | 'none'; network?: boolean; limits?: Record<string, number | undefined> };
  /** The environment the task's last attempt used (its folder on `hostQueue`'s host). */
  environment?: { key: string; name: string; hostDir: string; interpreter: string };
}

/** One change waiting in a branch's queue. */
export interface LandingRequest {
  /** The task workflow that asked: the lander answers it with `landingResult`. */
  taskWorkflowId: string;
  taskId: string;
  /** The task's repository as the task names it (a path or a URL). */
  repo: string;
  target: string;
  /** The change: the task's commit on `branch`. */
  sha: string;
  branch: string;
  /** The queue of the host that made the commit (it holds the repository and the task's environment). */
  hostQueue: string;
  tests: LandingTests;
  /** When it was queued (ISO): the order of the queue and how long a change waited. */
  queuedAt: string;
}

/** What the merge step found: a merge to test, the change already on the target, or a conflict. */
export type MergeFound =
  | { kind: 'merged'; targetHead: string; merged: string; tree: string; fastForward: boolean }
  | { kind: 'already_landed'; targetHead: string }
  | { kind: 'conflict'; targetHead: string; conflict: ConflictEvidence };

/** A conflict as the coder is told it: the files and, bounded, the conflicting hunks. */
export interface ConflictEvidence {
  files: string[];
  /** The conflicting hunks with their markers, at most a few KiB. */
  hunks: string;
}

/** What the ref update found: landed (now or by an earlier try), or the target moved since the merge. */
export type LandFound =
  { kind: 'landed'; landed: string; alreadyThere: boolean } | { kind: 'moved'; targetHead: string };

/** The lander's answer to a task. */
export type LandingOutcome =
  | {
      status: 'landed';
      target: string;
      /** The target's head the change was merged onto, and the commit the target now points at. */
      onto: string;
      landed: string;
      fastForward: boolean;
      tests?: LandingTestSummary;
      /** Merges tried because the target moved between the merge and the ref update. */
      remerges: number;
    }
  | {
      status: 'sent_back';
      target: string;
      onto: string;
      cause: 'MergeConflict' | 'FailsOnMergedTree';
      reason: string;
      conflict?: ConflictEvidence;
      tests?: LandingTestSummary;
    }
  | { status: 'refused'; target: string; reason: string }
  /** Taken off the queue before its ref update: its task was cancelled while the change waited or was merged. */
  | { status: 'withdrawn'; target: string; reason: string };

/** A task's landing as its state shows it: queued on the branch's lander until the lander answers. */
export type TaskLanding =
  | { status: 'queued'; target: string; sha: string; queuedAt: string; lander: string }
  | (LandingOutcome & { sha: string; queuedAt: string; answeredAt: string });

/** What `taskloop show` says of a landing, one line; `now` (epoch ms) measures how long a queued change waits. */
export function describeLanding(landing: TaskLanding, now?: number): string {
  const sha = landing.sha.slice(0, 12);
  if (landing.status === 'queued') {
    const seconds =
      now === undefined ? undefined : Math.max(0, Math.round((now - Date.parse(landing.queuedAt)) / 1000));
    return `landing: ${sha} queued on ${landing.target} (${landing.lander})${seconds === undefined ? '' : ` for ${seconds} s`}`;
  }
  if (landing.status === 'refused') return `landing: ${sha} refused on ${landing.target}: ${landing.reason}`;
  if (landing.status === 'withdrawn') return `landing: ${sha} withdrawn from ${landing.target}: ${landing.reason}`;
  const onto = `onto ${landing.target} at ${landing.onto.slice(0, 12)}`;
  const tests = landing.tests ? `; ${describeTests(landing.tests)}` : '';
  if (landing.status === 'landed')
    return `landing: ${sha} landed ${onto} as ${landing.landed.slice(0, 12)}${landing.fastForward ? ' (fast-forward)' : ''}${tests}`;
  const failing = landing.tests?.failing.length ? ` (failing: ${landing.tests.failing.join(', ')})` : '';
  return `landing: ${sha} sent back (${landing.cause}), merged ${onto}: ${landing.reason}${tests}${failing}`;
}

function describeTests(tests: LandingTestSummary): string {
  const { counts } = tests;
  return `tests on the merged tree ${tests.tree.slice(0, 12)}: ${tests.outcome}, ${counts.passed}/${counts.total} passed in ${(tests.durationMs / 1000).toFixed(1)} s`;
}

/** The merged tree's test run, as the task's record keeps it (the full result stays with the lander's activity). */
export interface LandingTestSummary {
  outcome: TestRunResult['outcome'];
  counts: TestRunResult['counts'];
  durationMs: number;
  failing: string[];
  tree: string;
}

const MAX_FAILING_NAMED = 20;

/** The summary of a merged tree's run: the counts and the failing tests' ids. */
export function summarizeLandingTests(result: TestRunResult, tree: string): LandingTestSummary {
  const failing = result.cases
    .filter((testCase) => testCase.outcome === 'failed' || testCase.outcome === 'error')
    .map((testCase) => testCase.id)
    .slice(0, MAX_FAILING_NAMED);
  return { outcome: result.outcome, counts: result.counts, durationMs: result.durationMs, failing, tree };
}

/** What the coder of the new attempt is told when its change went back: the evidence, in words. */
export function sentBackEvidence(outcome: Extract<LandingOutcome, { status: 'sent_back' }>): string {
  const head = `Your change was sent back by the queue that lands on ${outcome.target}: ${outcome.reason}.`;
  const start = `This attempt starts from ${outcome.target}'s head ${outcome.onto.slice(0, 12)}; make the change again on top of it.`;
  if (outcome.conflict)
    return `${head}\nConflicting files: ${outcome.conflict.files.join(', ')}\n${outcome.conflict.hunks}\n${start}`;
  const failing = outcome.tests?.failing ?? [];
  return `${head}\nTests failing on the merged tree: ${failing.join(', ') || '(see the run)'}\n${start}`;
}

/** Queue order: first queued first; one request per (task, change): a repeated enqueue is the same request. */
export function enqueueLanding(queue: LandingRequest[], request: LandingRequest): boolean {
  if (queue.some((queued) => queued.taskWorkflowId === request.taskWorkflowId && queued.sha === request.sha))
    return false;
  queue.push(request);
  return true;
}
