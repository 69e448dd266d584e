// The activities a taskloop worker serves, built by a factory that takes the worker's dependencies.
export interface ActivityDeps {
  hostId: string;
  hostQueue: string;
  workDir: string;
  /** JSON-lines file every task event is appended to. */
  eventsFile: string;
}

export function createActivities(deps: ActivityDeps) {
  return {
    /** Which host a caller reached: used by `taskloop doctor` and to route worktree-bound work. */
    async whoAmI(): Promise<{ hostId: string; hostQueue: string }> {
      return { hostId: deps.hostId, hostQueue: deps.hostQueue };
    },
  };
}

export type TaskloopActivities = ReturnType<typeof createActivities>;
