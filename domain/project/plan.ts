// The shape of a project (milestone -> feature -> task) and the checks that make its task graph runnable.
import type { TaskSpec } from '../task-spec.js';
import { findCycles } from './cycles.js';

/** One task of a project, with where it sits in the plan and what it waits for. */
export interface PlannedTask {
  spec: TaskSpec;
  milestone: string;
  feature: string;
  dependsOn: string[];
}

export interface PlannedFeature {
  id: string;
  title?: string;
  taskIds: string[];
}

export interface PlannedMilestone {
  id: string;
  title?: string;
  features: PlannedFeature[];
}

/** A validated tasks file: every task spec complete, the graph acyclic, tasks in file order. */
export interface ProjectPlan {
  project: string;
  /** Absolute path of the repository every task works on. */
  repo: string;
  /** How many task workflows may run at once. */
  concurrency: number;
  milestones: PlannedMilestone[];
  tasks: PlannedTask[];
}

/** A graph problem, tied to a task and, where one entry is at fault, to that `dependsOn` entry. */
export interface PlanGraphError {
  kind: 'duplicate' | 'unknown' | 'self' | 'cycle';
  taskId: string;
  message: string;
  /** Index of the offending task in the input (the later one for duplicates). */
  index: number;
  /** Index of the first task with the same id, for duplicates. */
  firstIndex?: number;
  /** The `dependsOn` entry at fault (unknown, self, or the next task of a cycle). */
  dependency?: string;
}

export type PlanGraphResult = { success: true; order: string[] } | { success: false; errors: PlanGraphError[] };

/**
 * Checks ids are unique, dependencies exist, and there is no cycle; on success returns a topological
 * order that keeps file order wherever the dependencies allow it. `container` names where ids live in
 * messages ("the file" by default).
 */
export function validatePlanGraph(
  tasks: { id: string; dependsOn: string[] }[],
  options: { container?: string } = {},
): PlanGraphResult {
  const container = options.container ?? 'the file';
  const errors: PlanGraphError[] = [];
  const firstIndex = new Map<string, number>();
  tasks.forEach((task, index) => {
    const first = firstIndex.get(task.id);
    if (first === undefined) firstIndex.set(task.id, index);
    else {
      const message = `duplicate task id '${task.id}' (first at index ${first}, again at index ${index}); give each task its own id`;
      errors.push({ kind: 'duplicate', taskId: task.id, index, firstIndex: first, message });
    }
  });

  const graph = new Map<string, string[]>();
  tasks.forEach((task, index) => {
    if (firstIndex.get(task.id) !== index) return;
    graph.set(task.id, task.dependsOn);
    for (const dep of new Set(task.dependsOn)) {
      const at = { taskId: task.id, index, dependency: dep };
      if (dep === task.id) {
        errors.push({
          kind: 'self',
          ...at,
          message: `task '${task.id}' depends on itself; remove '${dep}' from its dependsOn`,
        });
      } else if (!firstIndex.has(dep)) {
        errors.push({
          kind: 'unknown',
          ...at,
          message: `task '${task.id}' depends on '${dep}', which is not in ${container}`,
        });
      }
    }
  });

  const ids = [...graph.keys()];
  for (const cycle of findCycles(ids, graph)) {
    const taskId = cycle[0]!;
    const message = `cycle: ${cycle.join(' -> ')}; remove one of these dependencies`;
    errors.push({ kind: 'cycle', taskId, index: firstIndex.get(taskId)!, dependency: cycle[1], message });
  }
  if (errors.length > 0) return { success: false, errors };
  return { success: true, order: orderTopologically(ids, graph) };
}

/** Kahn's algorithm, always taking the earliest ready task in file order (the graph is known acyclic). */
function orderTopologically(ids: string[], graph: Map<string, string[]>): string[] {
  const done = new Set<string>();
  const order: string[] = [];
  while (order.length < ids.length) {
    const next = ids.find((id) => !done.has(id) && graph.get(id)!.every((dep) => done.has(dep)));
    if (next === undefined) break;
    done.add(next);
    order.push(next);
  }
  return order;
}

/** The workflow id of a project; fixed per project so a second start finds the running one. */
export function projectWorkflowId(project: string): string {
  return `project-${project}`;
}
