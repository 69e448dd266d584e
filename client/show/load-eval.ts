// An eval for `taskloop show`: its report (report.json, as `taskloop eval` wrote it), its picture (resolved.svg
// beside it, or drawn again from the report) and each instance's trajectory, read through Temporal and this disk.
import type { Client } from '@temporalio/client';
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { renderResolvedChart } from '../../domain/eval/chart.js';
import type { EvalReport } from '../../domain/eval/report.js';
import type { TaskTrajectory } from '../../domain/trajectory/trajectory.js';
import { stateDir } from '../../platform/paths.js';
import { UsageError } from '../cli-errors.js';
import { resolveTask } from '../tasks/resolve-task.js';
import { loadTrajectory } from './load-trajectory.js';

export interface LoadedEval {
  reportFile: string;
  report: EvalReport;
  svg: string;
  trajectories: Map<string, TaskTrajectory | { missing: string }>;
}

/** Instances read at once: each is a describe, a result and two files. */
const READ_AT_ONCE = 4;

/**
 * The report file `ref` names: a report.json, a folder holding one, or an eval id (its folder under
 * .taskloop/eval/); undefined when it names none of these (then it is a task).
 */
export function findEvalReport(ref: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const candidates = [ref, path.join(ref, 'report.json'), path.join(stateDir(env), 'eval', ref, 'report.json')];
  if (ref.includes('\0')) return undefined;
  return candidates.find(
    (file) => path.basename(file) === 'report.json' && existsSync(file) && statSync(file).isFile(),
  );
}

export async function readEvalReport(reportFile: string): Promise<{ report: EvalReport; svg: string }> {
  let report: EvalReport;
  try {
    report = JSON.parse(await readFile(reportFile, 'utf8')) as EvalReport;
  } catch (error) {
    throw new UsageError(`taskloop show: ${reportFile} is not an eval report (${(error as Error).message})`);
  }
  if (typeof report.evalId !== 'string' || !Array.isArray(report.arms) || typeof report.runs !== 'object')
    throw new UsageError(
      `taskloop show: ${reportFile} is not an eval report (no evalId, arms and runs): pass the report.json that taskloop eval wrote`,
    );
  const svgFile = path.join(path.dirname(reportFile), 'resolved.svg');
  const svg = existsSync(svgFile)
    ? await readFile(svgFile, 'utf8')
    : renderResolvedChart(`${report.suite}: resolved rate per arm and attempt`, report.arms, {
        maxAttempts: report.maxAttempts,
        comparisons: report.comparisons,
      });
  return { report, svg };
}

/** The report, its picture and every instance's trajectory (an instance that cannot be read says why). */
export async function loadEval(
  client: Client,
  reportFile: string,
  { report, svg }: { report: EvalReport; svg: string },
): Promise<LoadedEval> {
  const workflowIds = [...new Set(Object.values(report.runs).flatMap((runs) => runs.map((run) => run.workflowId)))];
  const trajectories = new Map<string, TaskTrajectory | { missing: string }>();
  for (let i = 0; i < workflowIds.length; i += READ_AT_ONCE) {
    const batch = workflowIds.slice(i, i + READ_AT_ONCE);
    const read = await Promise.all(
      batch.map(async (workflowId) => {
        try {
          return await loadTrajectory(client, await resolveTask(client, 'show', workflowId));
        } catch (error) {
          return { missing: `not read: ${(error as Error).message}` };
        }
      }),
    );
    batch.forEach((workflowId, index) => trajectories.set(workflowId, read[index] as TaskTrajectory));
  }
  return { reportFile, report, svg, trajectories };
}
