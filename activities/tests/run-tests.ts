// The test node: runs the task's test command in the worktree, through the sandbox, and returns a
// TestRunResult (a failing run is a value). The review's path rules run first: a refused change never runs.
import { existsSync } from 'node:fs';
import { ApplicationFailure } from '@temporalio/common';
import type { Finding, TestRunResult } from '../../domain/records.js';
import { redactFindings } from '../../domain/path-findings.js';
import { boundFindings } from '../../domain/payload-bounds.js';
import { encodedSecretForms } from '../../domain/secret-forms.js';
import { scrubText } from '../../domain/secrets.js';
import { writeArtifact } from '../artifacts.js';
import { IGNORED_NAMED } from '../git/ignored-files.js';
import type { SandboxPolicy } from '../sandbox/policy.js';
import { pathRuleFindings } from './path-policy.js';
import { executeTestCommand, testRunCancelled } from './execute-test-command.js';
import { stageChange, type StagedChange } from './stage-change.js';

import type { RunTestsInput } from './run-tests-input.js';

export { testRunCancelled } from './execute-test-command.js';
export type { RunTestsInput, TestEnvironment } from './run-tests-input.js';

/**
 * Runs the tests; timeout and cancellation kill the whole process tree. Logs (scrubbed) become artifacts
 * test-stdout.log, test-stderr.log and junit.xml. Throws only for bad input (non-retryable) or on cancellation.
 */
export async function runTests(input: RunTestsInput): Promise<TestRunResult> {
  checkInput(input);
  const { pathPolicy, worktreePath } = input;
  // The node's own run is staged as the review will see it (its ignored files removed: the tests see what the commit
  // would hold); the coder's runs (no path policy) see its worktree as it is.
  const change = pathPolicy ? await stageChange(worktreePath, pathPolicy, input.sandbox.limits.files) : undefined;
  const snapshot = change && { treeSha: change.treeSha, findings: change.findings };
  // What the snapshot could not take (a nested git folder, a FIFO) refuses the run too: the review says so.
  const refused =
    change && pathPolicy
      ? [...change.findings, ...pathRuleFindings(change.changedFiles, pathPolicy, input.secretValues)]
      : [];
  if (refused.length > 0) {
    // A path naming a secret split across folders (`dir_abc/def.txt`) is redacted in every finding that names it.
    const shown = redactFindings(refused, encodedSecretForms(input.secretValues));
    return { ...refusedResult(shown, input.sandbox), ...(snapshot && { snapshot }) };
  }
  const ran = withIgnoredRemoved(await executeTestCommand(input), change?.ignoredRemoved ?? []);
  const withSnapshot = snapshot ? { ...ran, snapshot } : ran;
  const result = change && change.changedFiles.length === 0 ? withoutPatterns(withSnapshot) : withSnapshot;
  // A change that failed its tests never reaches the review, which stores the diff: stored here, so `taskloop show`
  // can show what a failed attempt changed.
  return change && result.outcome !== 'passed' ? { ...result, ...(await storeDiff(change, input)) } : result;
}

/** The change's diff (of its tree) as diff.patch (scrubbed); nothing when git cannot diff it: the diff is for people. */
async function storeDiff(change: StagedChange, input: RunTestsInput): Promise<Pick<TestRunResult, 'diff'>> {
  try {
    const { diff } = await change.diff();
    const content = scrubText(diff, input.secretValues);
    return {
      diff: await writeArtifact({
        dir: input.artifactDir,
        name: 'diff.patch',
        content,
        hostId: input.hostId,
        secretValues: input.secretValues,
      }),
    };
  } catch {
    return {};
  }
}

/**
 * The run of an attempt that changed nothing fails as the task's code did before it: its failure patterns say nothing
 * about the attempt (a no-op attempt was classed `wrong_constant`, and the retry told to copy constants exactly).
 */
function withoutPatterns(result: TestRunResult): TestRunResult {
  if (result.patterns === undefined || result.patterns.length === 0) return result;
  return { ...result, patterns: [] };
}

function withIgnoredRemoved(result: TestRunResult, removed: string[]): TestRunResult {
  return removed.length > 0 ? { ...result, ignoredRemoved: removed.slice(0, IGNORED_NAMED) } : result;
}

function refusedResult(findings: Finding[], sandbox: SandboxPolicy): TestRunResult {
  return {
    outcome: 'error',
    exitCode: null,
    counts: { total: 0, passed: 0, failed: 0, errors: 0, skipped: 0 },
    cases: [],
    casesTruncated: false,
    reason: `tests not run: the review's path rules refused the change (${[...new Set(findings.map((finding) => finding.rule))].join(', ')})`,
    refused: boundFindings(findings),
    sandbox: { mode: sandbox.mode, network: sandbox.network === true },
    stdoutExcerpt: '',
    stderrExcerpt: '',
    durationMs: 0,
  };
}

function checkInput(input: RunTestsInput): void {
  const invalid = (type: string, message: string) => ApplicationFailure.create({ type, message, nonRetryable: true });
  if (input.command.length === 0 || !input.command[0]) {
    throw invalid(
      'InvalidTestCommand',
      `command must name a program, got ${JSON.stringify(input.command)}: pass argv such as ["python", "-m", "pytest"]`,
    );
  }
  if (!Number.isFinite(input.timeoutMs) || input.timeoutMs <= 0) {
    throw invalid(
      'InvalidTimeout',
      `timeoutMs must be a positive number of milliseconds, got ${input.timeoutMs}: pass e.g. 600000`,
    );
  }
  if (!existsSync(input.worktreePath)) {
    throw invalid(
      'InvalidWorktree',
      `worktreePath ${JSON.stringify(input.worktreePath)} does not exist: pass the worktreePath returned by createWorktree`,
    );
  }
  if (input.signal?.aborted) throw testRunCancelled(input.signal);
}
