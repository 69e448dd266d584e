// Task queue names. Workflows and claim activities use the shared queue; everything bound to one worktree runs on
// the queue of the host that created it, so workers on many machines never touch each other's folders.
export const SHARED_TASK_QUEUE = 'taskloop';

/** The host-specific queue of one worker host (its work folder). */
export function hostTaskQueue(hostId: string): string {
  return `${SHARED_TASK_QUEUE}-host-${hostId}`;
}
