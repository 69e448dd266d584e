// The worktree's activities: the claim that picks this host and makes (or finds) the attempt's worktree, the commit
// (with a cached clone's push) and the removal. Git over the worktree here runs before any repository code, or reads
// the tree the review read by id (activities/git).
import type { CommitResult } from '../domain/records.js';
import { isRepoUrl } from '../domain/repo-url.js';
import { heartbeatWhile } from './heartbeat-while.js';
import {
  commitWorktree,
  createWorktree,
  fetchBase,
  isCachedCloneWorktree,
  localRepoPath,
  pushBranch,
  removeWorktree,
} from './git/index.js';
import { commitThenRemove } from './git/commit-then-remove.js';
import { readClaimHistory } from './learning/read-project-learning.js';
import { loadAgent } from './models/agent-registry.js';
import { scrubForSink } from './secret-values.js';
import { refuseClearStartInput } from './clear-start-input.js';
import type { AttemptRef, Claim, ClaimInput, CommitAndRemoveResult, CommitInput } from './task-activity-types.js';

export interface WorktreeDeps {
  hostId: string;
  hostQueue: string;
  workDir: string;
  /** The attempt's artifact folder (per workflow run and attempt): where a commit's state is kept for its retry. */
  artifactDir: (ref: AttemptRef) => string;
  /** Refuse a task whose start input is in clear (a keyed worker; see clear-start-input.ts). */
  refuseClearInputs?: boolean;
}

export function createWorktreeActivities(deps: WorktreeDeps) {
  return {
    /** Picks this host for the attempt and creates (or finds) its worktree; returns the host's own queue. */
    async claimWorktree(input: ClaimInput): Promise<Claim> {
      // The first claim of a run, before anything is made: a later one was let through by an earlier claim.
      if (deps.refuseClearInputs && input.attempt === 1) await refuseClearStartInput();
      // A repository by URL: this host's clone, with the base ref fetched now (one fetch per claim).
      const local = isRepoUrl(input.repoPath)
        ? await fetchBase(input.repoPath, deps.workDir, input.baseRef)
        : undefined;
      const repo = local ? { repoPath: local.repoPath, baseRef: local.baseSha } : {};
      const { agent } = await loadAgent('coder', { pinned: input.coderVersion });
      // The history read never throws, so it runs beside the worktree's creation.
      const [created, history] = await Promise.all([
        heartbeatWhile(() => createWorktree({ ...input, ...repo, workDir: deps.workDir })),
        input.historyOf ? readClaimHistory({ ...input, project: input.historyOf }) : {},
      ]);
      return {
        ...created,
        ...history,
        hostId: deps.hostId,
        hostQueue: deps.hostQueue,
        coderAgent: { version: agent.version, capabilities: agent.capabilities },
      };
    },

    /** Commits once (and pushes a cached clone's branch); with `removeWorktree`, removes the committed worktree. */
    async commitWorktree(input: CommitInput): Promise<CommitAndRemoveResult> {
      const { removeWorktree: removal, ...commitInput } = input;
      return heartbeatWhile(() =>
        commitThenRemove({
          commit: () => commitAndPush(commitInput, deps.workDir),
          stateDir: deps.artifactDir(input),
          removal: removal && {
            repoPath: localRepoPath(removal.repoPath, deps.workDir),
            worktreePath: input.worktreePath,
          },
        }),
      );
    },

    async removeWorktree(input: {
      repoPath: string;
      worktreePath: string;
    }): Promise<{ removed: boolean; wasClean: boolean }> {
      return heartbeatWhile(() => removeWorktree({ ...input, repoPath: localRepoPath(input.repoPath, deps.workDir) }));
    },
  };
}

/** The message is built from the goal and the coder's summary: scrubbed before git stores it (and its reflog). */
async function commitAndPush(input: Omit<CommitInput, 'removeWorktree'>, workDir: string): Promise<CommitResult> {
  const commit = await commitWorktree({ ...input, message: scrubForSink(input.message, input.secretEnvNames) });
  if (!(await isCachedCloneWorktree(input.worktreePath, workDir))) return commit;
  const { remote } = await pushBranch({ worktreePath: input.worktreePath, branch: commit.branch, sha: commit.sha });
  return { ...commit, remote };
}
