// The nodes of the task graph and the findings they report: the bottom of records.ts, which the cause table and the
// failure classes import without coming back through records.ts's FailureCause (no import circle).
/** The nodes of the task graph, in order. */
export const taskNodes = ['claim', 'code', 'test', 'review', 'judge', 'commit'] as const;
export type TaskNode = (typeof taskNodes)[number];

/** One policy or model finding about a change. */
export interface Finding {
  /** Which check produced it, e.g. `empty_diff`, `test_file_edited`, `python_syntax`. */
  rule: string;
  message: string;
  file?: string;
  line?: number;
}
