// Instances of one suite measured in separate runs (a long tier run in parts, the peer's report beside taskloop's)
// joined into one set of arms, so they are paired as `taskloop eval` pairs them. Pure: reports in, arms out.
import type { ArmResult } from './records.js';
import type { EvalReport } from './report.js';

/**
 * The runs of every report's arms, joined per arm label (the same model, version, learning and samples), in the order
 * the labels first appear; arms whose label `leaveOut` matches are left out. An instance run twice under one label
 * is an error: the pairing would count it twice.
 */
export function joinReports(reports: readonly EvalReport[], leaveOut?: (label: string) => boolean): ArmResult[] {
  const byLabel = new Map<string, ArmResult>();
  for (const report of reports)
    for (const summary of report.arms) {
      if (leaveOut?.(summary.arm.label)) continue;
      const runs = report.runs[summary.arm.id] ?? [];
      const joined = byLabel.get(summary.arm.label);
      if (!joined) {
        const arm = { evalId: report.evalId, suite: report.suite, arm: summary.arm, runs: [...runs] };
        byLabel.set(summary.arm.label, { ...arm, total: runs.length, finished: true });
        continue;
      }
      const twice = runs.find((run) => joined.runs.some((seen) => seen.instanceId === run.instanceId));
      if (twice)
        throw new Error(
          `instance ${twice.instanceId} is in two reports under the arm '${summary.arm.label}' (${joined.evalId} and ${report.evalId}): leave one of them out`,
        );
      joined.runs.push(...runs);
      joined.total += runs.length;
    }
  return [...byLabel.values()];
}
