// A run that starts before it may run: its sandbox (the pids cgroup join, bubblewrap's namespaces and mounts) is set
// up while the worker still checks the change, and its command waits at a gate until the worker says go. The test
// node starts its sandbox this way while it stages and diffs the change (bubblewrap's set-up took 7 to 15 ms per run
// here, the diff about as long), and closes the gate when the review's path rules refuse the change.
//
// The gate is a shell inside the sandbox reading one line from fd 3 (a pipe from the spawn helper): only `go` execs
// the command (with fd 3 closed); an empty read (the helper died, or the worker closed the gate) ends it with exit 1.
// bubblewrap's own --block-fd would not do: it goes on at end of file, so a dead helper would let the command run.

/** argv that waits for the go on fd 3, then execs `argv` without fd 3. */
export function gatedArgs(argv: string[]): string[] {
  return ['/bin/sh', '-c', 'read -r go <&3 && [ "$go" = go ] && exec "$@" 3<&-', 'taskloop-gate', ...argv];
}

export interface Gate {
  /** Resolves true when the command may run, false when it must not (it is then killed unstarted). */
  readonly decided: Promise<boolean>;
  /** Decides once; later calls change nothing. */
  decide(run: boolean): void;
}

export function createGate(): Gate {
  let decide: (run: boolean) => void = () => undefined;
  const decided = new Promise<boolean>((resolve) => (decide = resolve));
  return { decided, decide: (run) => decide(run) };
}
