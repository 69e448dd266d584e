export { createWorktree, worktreePathFor, type CreateWorktreeInput, type CreatedWorktree } from './create-worktree.js';
export { diffWorktree, type WorktreeDiff } from './diff-worktree.js';
export { commitWorktree, type CommitWorktreeInput } from './commit-worktree.js';
export { removeWorktree } from './remove-worktree.js';
export { fetchBase, localRepoPath } from './repo-cache.js';
export { isCachedCloneWorktree, pushBranch } from './push-branch.js';
