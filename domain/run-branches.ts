// Choosing the branch that keeps a run's commit: `taskloop/<id>`, then `-run2`, `-run3`, … A name already taken (in
// this host's clone, or on the remote for a repository by URL) is never reused unless it already holds the commit.

/** The name of the n-th run's branch of a task: `taskloop/<id>`, then `taskloop/<id>-run2`, `-run3`, … */
export function runBranchName(preferred: string, n: number): string {
  return n <= 1 ? preferred : `${preferred}-run${n}`;
}

/** True for `preferred` and its `-runN` siblings. */
export function isRunBranch(preferred: string, name: string): boolean {
  if (name === preferred) return true;
  const suffix = name.startsWith(`${preferred}-run`) ? name.slice(preferred.length + 4) : '';
  return /^[1-9]\d*$/.test(suffix) && Number(suffix) >= 2;
}

export interface RunBranchChoice {
  name: string;
  /** False when the local branch already holds the commit (a retried commit): nothing to create. */
  create: boolean;
}

/**
 * The branch for `sha`, given the run branches (name → tip) of this host's clone and, for a repository by URL, of the
 * remote: the first name that already holds the commit where it exists (a retry), else the first name free in both.
 */
export function chooseRunBranch(input: {
  preferred: string;
  sha: string;
  local: ReadonlyMap<string, string>;
  remote?: ReadonlyMap<string, string>;
}): RunBranchChoice {
  const { preferred, sha, local, remote } = input;
  const taken = [...local.keys(), ...(remote?.keys() ?? [])].filter((name) => isRunBranch(preferred, name));
  const last = taken.length + 1;
  for (let n = 1; n <= last; n += 1) {
    const name = runBranchName(preferred, n);
    const [here, there] = [local.get(name), remote?.get(name)];
    const holds = (here === sha || here === undefined) && (there === sha || there === undefined);
    if (holds && (here === sha || there === sha)) return { name, create: here === undefined };
  }
  for (let n = 1; ; n += 1) {
    const name = runBranchName(preferred, n);
    if (!local.has(name) && !remote?.has(name)) return { name, create: true };
  }
}
