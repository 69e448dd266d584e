// The contract between the coder loop and its tools.
import type { Capability } from '../../../domain/capabilities.js';
import type { CoderTelemetry } from '../../../domain/records.js';
import type { ToolSpec } from '../../models/types.js';
import type { ShownLines } from '../../../domain/edit-match.js';
import type { RunSites } from '../../../domain/evidence-first/regressions.js';
import type { InAttemptTests } from './test-runner.js';

/** Mutable state of one coder run that tools read and update. */
export interface ToolContext {
  /** Worktree root (absolute). */
  root: string;
  telemetry: CoderTelemetry;
  /** Repo-relative paths where a replace_in_file failed, to count write_file fallbacks. */
  failedReplacePaths: Set<string>;
  /** Repo-relative paths successfully written, replaced, deleted or moved. */
  changedFiles: Set<string>;
  /** How run_tests runs the task's tests; absent when the run has no test command. */
  tests?: InAttemptTests;
  /** What the tools refuse that cannot help the task (coaching.ts); absent: nothing. */
  coaching?: Coaching;
  /** A finish with no change was refused already in this run (it is refused once). */
  emptyFinishRefused?: boolean;
  /** A finish after an untested edit was refused already in this run (it is refused once). */
  untestedFinishRefused?: boolean;
  /** The latest run_tests: whether it passed, and the edits made before it (telemetry.mutationOperations then). */
  lastTestRun?: { passed: boolean; mutationsBefore: number; summary: string; narrowing: string };
  /** The task's tests at the base (an evidence-first run's opening), which run_tests replies compare against. */
  baseTestRun?: RunSites;
  /** The code an evidence-first opening showed, by file (not test files): an edit whose old recurs lands there. */
  shownCode?: ReadonlyMap<string, readonly ShownLines[]>;
  /** pytest's `E` lines the evidence-first opening showed: an old copied from them is named as test output. */
  evidenceLines?: readonly string[];
}

/** What a tool hands back: the reply text for the model, and `finished` when it ends the run. */
export interface ToolOutcome {
  reply: string;
  finished?: { summary: string };
}

export interface CoderTool {
  spec: ToolSpec;
  /** What an agent version must be granted to be offered the tool. */
  capability: Capability;
  /** The tool's line in the system prompt. */
  promptLine: string;
  run(args: Record<string, unknown>, context: ToolContext): Promise<ToolOutcome>;
}

/** What the tools refuse for a run (absent: nothing). */
export interface Coaching {
  /** Test files may not be changed: the task's `allowTestEdits` is false. */
  refuseTestEdits: boolean;
  /** `finish` before any file was changed is refused once. */
  refuseEmptyFinish: boolean;
  /**
   * `finish` after an edit no passing test run has checked is refused once (set by the coder loop for a version that
   * lists its tools with run_tests among them, such as coder-small, when the task has a test command).
   */
  refuseUntestedFinish?: boolean;
  /**
   * run_tests is refused (without spending a run) when nothing changed since a failing run of the same tests: it would
   * fail the same way. Set with refuseUntestedFinish; the 1.5B re-ran a failing test three times instead of editing.
   */
  refuseRepeatedTestRun?: boolean;
}
