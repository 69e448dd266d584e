// `taskloop clean`: removes what taskloop leaves behind and nobody needs: taskloop branches without a commit of
// their own, old artifact folders and idle learning workflows. Never a commit: a branch with one is kept.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { resolveHost } from '../../workers/host.js';
import { durationFlag, parseFlags } from '../args.js';
import { UsageError } from '../cli-errors.js';
import { findOldArtifacts, removeArtifactFolder } from '../clean/artifacts.js';
import { judgeBranches, removeBranch } from '../clean/branches.js';
import { endLearningWorkflow, findIdleLearningWorkflows, holdsLearning } from '../clean/learning.js';
import { withTaskClient } from '../tasks/task-client.js';
import type { Command } from './command.js';

const help = `Usage: taskloop clean [--repo PATH] [--older-than DURATION] [--project NAME] [--dry-run]

Removes what finished tasks leave behind:
  - with --repo, the repository's taskloop/* branches that hold no commit of their own (their tip is also on
    another branch or tag, e.g. an empty branch of a failed task). A branch holding a commit no other ref holds,
    or one checked out in a worktree, is always kept.
  - artifact folders under the worker's work folder (TASKLOOP_WORK_DIR, default .taskloop/work) in which nothing
    was written for --older-than.
  - learning workflows (learning-<project>-<role>, and reflection-<project>-<role> from before the rename) that
    got no failure for --older-than and learned nothing: terminated with a reason (the next failure starts a fresh
    one). One that holds skills or failure history is kept.

  --repo PATH             the repository whose taskloop/* branches to clean
  --older-than DURATION   age of artifacts and idle learning workflows to remove (30m, 12h, 7d; default 7d)
  --project NAME          only the learning workflows of this project
  --dry-run               print what would be removed, remove nothing

Exit codes: 0 cleaned (also when nothing was old), 1 git or the Temporal server failed, 2 a bad flag value.`;

const options = {
  repo: { type: 'string' },
  'older-than': { type: 'string' },
  project: { type: 'string' },
  'dry-run': { type: 'boolean' },
} as const;

const DEFAULT_OLDER_THAN = '7d';

function checkRepo(repo: string): string {
  const resolved = path.resolve(repo);
  if (!existsSync(path.join(resolved, '.git'))) {
    throw new UsageError(
      `taskloop clean: --repo ${JSON.stringify(repo)} is not a git repository (no .git in ${resolved}); pass the repository's top folder`,
    );
  }
  return resolved;
}

async function cleanBranches(repo: string, dryRun: boolean, say: (line: string) => void): Promise<void> {
  for (const verdict of await judgeBranches(repo)) {
    if (verdict.action === 'keep') {
      say(`keep branch ${verdict.branch}: ${verdict.why}`);
      continue;
    }
    if (!dryRun) await removeBranch(repo, verdict);
    say(`${dryRun ? 'would remove' : 'removed'} branch ${verdict.branch}: ${verdict.why}`);
  }
}

async function cleanArtifacts(
  workDir: string,
  olderThanMs: number,
  dryRun: boolean,
  say: (line: string) => void,
): Promise<void> {
  for (const folder of await findOldArtifacts(workDir, olderThanMs, Date.now())) {
    if (!dryRun) await removeArtifactFolder(folder);
    say(
      `${dryRun ? 'would remove' : 'removed'} artifacts ${folder.dir} (last written ${new Date(folder.newestMs).toISOString()})`,
    );
  }
}

export const cleanCommand: Command = {
  summary: 'remove empty taskloop branches, old artifacts and idle learning workflows',
  help,
  async run(argv) {
    const { values } = parseFlags('clean', argv, options);
    const olderThan = values['older-than'] ?? DEFAULT_OLDER_THAN;
    const olderThanMs = durationFlag('clean', 'older-than', olderThan, 0);
    const repo = values.repo === undefined ? undefined : checkRepo(values.repo);
    const dryRun = values['dry-run'] === true;
    const say = (line: string) => console.log(line);

    if (repo !== undefined) await cleanBranches(repo, dryRun, say);
    await cleanArtifacts(resolveHost().workDir, olderThanMs, dryRun, say);
    await withTaskClient(async ({ client }) => {
      for (const workflow of await findIdleLearningWorkflows(client, {
        project: values.project,
        olderThanMs,
        nowMs: Date.now(),
      })) {
        if (holdsLearning(workflow)) {
          say(
            `keep learning workflow ${workflow.workflowId}: holds what the project learned (${workflow.learned ? `${workflow.learned.skills} skills, ${workflow.learned.failures} failures` : 'its learning query got no answer'})`,
          );
          continue;
        }
        if (!dryRun) await endLearningWorkflow(client, workflow, olderThan);
        say(
          `${dryRun ? 'would end' : 'ended'} learning workflow ${workflow.workflowId} (last failure ${new Date(workflow.lastFailureMs).toISOString()})`,
        );
      }
    });
    return 0;
  },
};
