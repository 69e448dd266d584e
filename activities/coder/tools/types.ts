// The contract between the coder loop and its tools.
import type { CoderTelemetry } from '../../../domain/records.js';
import type { ToolSpec } from '../../models/types.js';

/** Mutable state of one coder run that tools read and update. */
export interface ToolContext {
  /** Worktree root (absolute). */
  root: string;
  telemetry: CoderTelemetry;
  /** Repo-relative paths where a replace_in_file failed, to count write_file fallbacks. */
  failedReplacePaths: Set<string>;
  /** Repo-relative paths successfully written or replaced. */
  changedFiles: Set<string>;
}

/** What a tool hands back: the reply text for the model, and `finished` when it ends the run. */
export interface ToolOutcome {
  reply: string;
  finished?: { summary: string };
}

export interface CoderTool {
  spec: ToolSpec;
  run(args: Record<string, unknown>, context: ToolContext): Promise<ToolOutcome>;
}
