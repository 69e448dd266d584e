// Whether an eval crowns a new coder champion: the best arm's coder version must lead the current champion's arm
// on the instances both ran, with the paired interval of its lead wholly above 0. Otherwise the reason why not.
import type { ArmResult } from './records.js';
import { compareArms } from './report.js';
import { excludesZero } from './stats.js';

export interface PromotionDecision {
  promote: boolean;
  champion: string;
  /** The version that would become champion (absent when no arm ran another version). */
  candidate?: string;
  reason: string;
  shared?: number;
  difference?: number;
  interval?: { low: number; high: number; level: number };
  pValue?: number;
}

/** The coder version an arm ran: the pinned one, else the champion of the time. */
const versionOf = (result: ArmResult, champion: string) => result.arm.agent ?? champion;
const resolvedCount = (result: ArmResult) => result.runs.filter((run) => run.verification.resolved).length;

export function decidePromotion(results: readonly ArmResult[], champion: string, seed = 42): PromotionDecision {
  const championArms = results.filter((result) => versionOf(result, champion) === champion);
  const others = results.filter((result) => versionOf(result, champion) !== champion);
  if (others.length === 0)
    return { promote: false, champion, reason: `every arm ran the champion ${champion}: there is no challenger` };
  const best = [...others].sort((x, y) => resolvedCount(y) - resolvedCount(x))[0] as ArmResult;
  const candidate = versionOf(best, champion);
  // The champion's arm that differs from the challenger's only in the coder version, when there is one.
  const rival =
    championArms.find(
      (r) =>
        r.arm.model === best.arm.model && r.arm.learning === best.arm.learning && r.arm.samples === best.arm.samples,
    ) ?? championArms[0];
  if (!rival)
    return {
      promote: false,
      champion,
      candidate,
      reason: `no arm ran the champion ${champion}, so nothing measured ${candidate}'s lead: add it to --agents`,
    };
  const comparison = compareArms(best, rival, seed);
  const figures = {
    shared: comparison.shared,
    difference: comparison.difference,
    interval: comparison.interval,
    pValue: comparison.signTest.pValue,
  };
  const interval = `[${comparison.interval.low.toFixed(3)}, ${comparison.interval.high.toFixed(3)}]`;
  const lead = `${candidate} (${best.arm.id}) against ${champion} (${rival.arm.id}) on ${comparison.shared} shared instances: lead ${comparison.difference.toFixed(3)}, ${Math.round(comparison.interval.level * 100)}% interval ${interval}`;
  if (comparison.shared === 0)
    return { promote: false, champion, candidate, reason: `${lead}: the arms share no instance`, ...figures };
  if (!excludesZero(comparison.interval) || comparison.interval.low <= 0)
    return { promote: false, champion, candidate, reason: `${lead} does not exclude 0: kept ${champion}`, ...figures };
  return { promote: true, champion, candidate, reason: `${lead} excludes 0: ${candidate} is champion`, ...figures };
}
