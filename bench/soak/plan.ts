// The soak's scripted tasks, pure: which project each task is in, what its script does, what state it must end in.

export type SoakKind = 'pass' | 'retry' | 'fail' | 'dependant' | 'skipped';

export interface SoakTask {
  id: string;
  project: string;
  kind: SoakKind;
  dependsOn?: string[];
  /** The state the script implies: a task whose dependency failed is never started. */
  expected: 'COMPLETED' | 'FAILED' | 'NOT_STARTED';
  /** Attempts a finished task took. */
  attempts?: number;
}

/** In each block of ten tasks: six pass at once, two pass after a retry, one fails for good, one depends on a pass. */
const blockKinds: SoakKind[] = ['pass', 'pass', 'pass', 'retry', 'pass', 'fail', 'pass', 'retry', 'pass', 'dependant'];

function taskOf(project: string, index: number, blockStart: string): SoakTask {
  const id = `t${String(index).padStart(5, '0')}`;
  const kind = blockKinds[index % blockKinds.length] as SoakKind;
  if (kind === 'retry') return { id, project, kind, expected: 'COMPLETED', attempts: 2 };
  if (kind === 'fail') return { id, project, kind, expected: 'FAILED', attempts: 1 };
  if (kind === 'dependant') return { id, project, kind, dependsOn: [blockStart], expected: 'COMPLETED', attempts: 1 };
  return { id, project, kind, expected: 'COMPLETED', attempts: 1 };
}

/**
 * `total` tasks over `projects` projects: the first project takes half of them (the long batch whose workflow must
 * continue as new), the others share the rest. Every twentieth task depends on a task that fails: it is skipped.
 */
export function planSoak(total: number, projects: number, prefix: string): SoakTask[] {
  const names = Array.from({ length: Math.max(1, projects) }, (_, index) => `${prefix}-p${index + 1}`);
  const shares = names.map((_, index) =>
    names.length === 1 ? total : index === 0 ? Math.ceil(total / 2) : Math.floor(total / 2 / (names.length - 1)),
  );
  shares[shares.length - 1] = (shares.at(-1) ?? 0) + total - shares.reduce((sum, share) => sum + share, 0);
  const tasks: SoakTask[] = [];
  names.forEach((project, p) => {
    for (let index = 0; index < (shares[p] ?? 0); index++) {
      const blockStart = `t${String(index - (index % 10)).padStart(5, '0')}`;
      const task = taskOf(project, index, blockStart);
      const failing = `t${String(index - (index % 10) + 5).padStart(5, '0')}`;
      if (index % 20 === 19 && index - 14 >= 0)
        tasks.push({ id: task.id, project, kind: 'skipped', dependsOn: [failing], expected: 'NOT_STARTED' });
      else tasks.push(task);
    }
  });
  return tasks;
}
