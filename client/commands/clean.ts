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
import { printActionJson } from '../output/action-json.js';
import { withTaskClient } from '../tasks/task-client.js';
import type { Command } from './command.js';

const help = `Usage: taskloop clean [--repo PATH] [--older-than DURATION] [--project NAME] [--dry-run] [--json]

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
  --json                  stdout gets {"command", "asked", "happened", "ids", "details"}: ids what was (or with
                          --dry-run would be) removed, details.kept what was kept and why

Exit codes: 0 cleaned (also when nothing was old), 1 git or the Temporal server failed, 2 a bad flag value.`;

const options = {
  repo: { type: 'string' },
  'older-than': { type: 'string' },
  project: { type: 'string' },
  'dry-run': { type: 'boolean' },
  json: { type: 'boolean' },
} as const;

/** One thing clean judged: removed (or, dry, would remove) or kept, with the sentence the text output prints. */
interface Judged {
  id: string;
  removed: boolean;
  line: string;
  why?: string;
}

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

async function cleanBranches(repo: string, dryRun: boolean, say: (judged: Judged) => void): Promise<void> {
  for (const verdict of await judgeBranches(repo)) {
    const { branch, why } = verdict;
    if (verdict.action === 'keep') {
      say({ id: branch, removed: false, why, line: `keep branch ${branch}: ${why}` });
      continue;
    }
    if (!dryRun) await removeBranch(repo, verdict);
    say({ id: branch, removed: true, line: `${dryRun ? 'would remove' : 'removed'} branch ${branch}: ${why}` });
  }
}

async function cleanArtifacts(
  workDir: string,
  olderThanMs: number,
  dryRun: boolean,
  say: (judged: Judged) => void,
): Promise<void> {
  for (const folder of await findOldArtifacts(workDir, olderThanMs, Date.now())) {
    if (!dryRun) await removeArtifactFolder(folder);
    say({
      id: folder.dir,
      removed: true,
      line: `${dryRun ? 'would remove' : 'removed'} artifacts ${folder.dir} (last written ${new Date(folder.newestMs).toISOString()})`,
    });
  }
}

/** Ends the idle learning workflows that learned nothing; keeps the ones that hold skills or failures. */
async function cleanLearning(
  options: { project: string | undefined; olderThan: string; olderThanMs: number; dryRun: boolean },
  say: (judged: Judged) => void,
): Promise<void> {
  const { project, olderThan, olderThanMs, dryRun } = options;
  await withTaskClient(async ({ client }) => {
    for (const workflow of await findIdleLearningWorkflows(client, { project, olderThanMs, nowMs: Date.now() })) {
      const id = workflow.workflowId;
      if (holdsLearning(workflow)) {
        const why = `holds what the project learned (${workflow.learned ? `${workflow.learned.skills} skills, ${workflow.learned.failures} failures` : 'its learning query got no answer'})`;
        say({ id, removed: false, why, line: `keep learning workflow ${id}: ${why}` });
        continue;
      }
      if (!dryRun) await endLearningWorkflow(client, workflow, olderThan);
      say({
        id,
        removed: true,
        line: `${dryRun ? 'would end' : 'ended'} learning workflow ${id} (last failure ${new Date(workflow.lastFailureMs).toISOString()})`,
      });
    }
  });
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
    const json = values.json === true;
    const judged: Judged[] = [];
    const say = (one: Judged) => {
      if (json) judged.push(one);
      else console.log(one.line);
    };

    if (repo !== undefined) await cleanBranches(repo, dryRun, say);
    await cleanArtifacts(resolveHost().workDir, olderThanMs, dryRun, say);
    await cleanLearning({ project: values.project, olderThan, olderThanMs, dryRun }, say);
    if (json)
      printActionJson({
        command: dryRun ? 'clean --dry-run' : 'clean',
        asked: { repo, olderThan, project: values.project, dryRun },
        happened: dryRun ? 'would-remove' : 'removed',
        ids: judged.filter((one) => one.removed).map((one) => one.id),
        details: { kept: judged.filter((one) => !one.removed).map(({ id, why }) => ({ id, why })) },
      });
    return 0;
  },
};
