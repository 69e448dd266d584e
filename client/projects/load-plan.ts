// A tasks file checked at the edge before anything starts: the file itself (outline, types, graph, each problem
// at file:line:col), then every task's repository, base ref and scripted model files, as `taskloop run` checks them.
import type { ProjectPlan } from '../../domain/project/plan.js';
import { UsageError } from '../cli-errors.js';
import { formatTasksFileErrors, loadTasksFile } from '../tasks-file/load.js';
import { prepareTaskSpec, type PrepareOptions } from '../tasks/prepare-spec.js';

/** The validated plan of `file`; every problem is a UsageError (exit 2) prefixed with `taskloop <command>:`. */
export async function loadProjectPlan(
  command: string,
  file: string,
  cwd: string,
  options: PrepareOptions = {},
): Promise<ProjectPlan> {
  const loaded = await loadTasksFile(file);
  if (!loaded.success) {
    throw new UsageError(
      `taskloop ${command}: the tasks file has ${loaded.errors.length} problem(s), nothing was started:\n${formatTasksFileErrors(loaded.errors)}`,
    );
  }
  const plan = loaded.data;
  const tasks = [];
  for (const task of plan.tasks) {
    const spec = await prepareTaskSpec(task.spec, cwd, options).catch((error: unknown) => {
      if (!(error instanceof UsageError)) throw error;
      throw new UsageError(
        `taskloop ${command}: ${file}: task ${task.spec.id}: ${error.message.replace(/^invalid task: /, '')}`,
      );
    });
    tasks.push({ ...task, spec });
  }
  return { ...plan, tasks };
}
