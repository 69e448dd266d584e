// `taskloop demo`: the main job end to end on the local dev server: five real tasks on a real Python project.
import path from 'node:path';
import { projectWorkflowId } from '../../domain/project/plan.js';
import { taskNodes } from '../../domain/records.js';
import type { projectWorkflow } from '../../workflows/project.js';
import { parseFlags } from '../args.js';
import { withTaskLinesJson } from '../output/json-rows.js';
import { connectClient } from '../../platform/connection.js';
import { loadDemoPlan } from '../demo/demo-plan.js';
import { prepareDemoRepo } from '../demo/prepare-repo.js';
import { refuseUnreachableProviders } from '../tasks/provider-preflight.js';
import { describeLearning } from '../demo/show-learning.js';
import { watchProject } from '../watch/watch-project.js';
import { ensureLocalServer } from '../../platform/local-server.js';
import { formatProjectReport } from '../output/project-report.js';
import { formatReviewAndLanding } from '../output/review-and-landing.js';
import { readReviewAndLanding } from '../projects/review-and-landing.js';
import { stateDir } from '../../platform/paths.js';
import { formatTemporalHints } from '../output/temporal-hints.js';
import { findTemporalCli } from '../../platform/server/temporal-cli.js';
import type { Command } from './command.js';

const help = `Usage: taskloop demo [--model SPEC] [--json]

Runs taskloop's main job on the local Temporal dev server (started in the background if none answers, and left
running): makes a small real Python project with pytest tests from examples/calc, starts a worker, and runs the
batch in examples/calc/tasks.yaml (five tasks, one depending on two others) with the scripted model:
  fix-add           edits wrongly, runs the tests inside its attempt, reads the failure, fixes: passes at attempt 1
  fix-mean          fails its tests at attempt 1 and passes at attempt 2 with the pytest evidence
  fix-median        fails the same way as fix-mean, then passes at attempt 2; the two failures make a skill
  fix-mul-doc       edits a test: refused at the test node (no test runs), passes when retried, and lands on the
                    demo repository's main (landOn: main): merged onto main's head, tested on the merged tree
  document-spread   waits for fix-mean and fix-median, is offered the skill, then passes
It shows live progress, prints the report, what landed (task, branch, commit), the skill and the Web UI address
of the project.

  --model SPEC   the coder model for every task instead of the recorded one (openai:<model>, anthropic:<model>,
                 local:qwen2.5-coder-1.5b, local:qwen2.5-coder-0.5b, local:FILE.gguf or scripted:<file.json>); the
                 demo's outcomes above hold only for the recorded scripts. A local: model runs with the coder
                 version coder-small (the tests' evidence first, four tools), at most 8 coder steps per attempt,
                 and up to 3 candidates in one attempt, the first whose tests pass kept (no retries)
  --json         progress goes to stderr and stdout gets only the project report as JSON (with "landed" and
                 "waiting" as in taskloop report --json), for scripts and CI

Exit codes: 0 every task completed, 1 a task did not (or the demo could not run), 2 bad flags.`;

export const demoCommand: Command = {
  summary: 'run five real tasks on a real Python project, live, on the local dev server',
  help,
  async run(argv) {
    const { values } = parseFlags('demo', argv, { model: { type: 'string' }, json: { type: 'boolean' } });
    // In JSON mode stdout carries only the report; everything a person reads goes to stderr.
    const log = (line: string) => (values.json ? console.error(line) : console.log(line));
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
    const project = `demo-${stamp}`;
    const runDir = path.join(stateDir(), 'demo', stamp);

    // Before anything starts: the demo's worker runs here, with this environment, and a missing key would only
    // fail every attempt (and teach a skill about missing keys).
    if (values.model) await refuseUnreachableProviders('demo', [{ coder: values.model }], { workersElsewhere: false });
    log(`taskloop demo: ${taskNodes.join(' -> ')}, on Temporal\n`);
    const server = await ensureLocalServer(log);
    const repo = await prepareDemoRepo(runDir);
    log(`Made the Python project ${repo} (git, pytest tests, four bugs)`);
    const plan = await loadDemoPlan({ project, repo, model: values.model });
    const { launchWorker } = await import('../../workers/launch.js');
    // The worker's log lines go to a file: on a terminal they would scroll the live board away.
    const workerLog = path.join(runDir, 'worker.log');
    const worker = await launchWorker({ log, shutdownGraceTime: '5s', logFile: workerLog });
    log(`Worker log: ${workerLog}`);
    const { client, connection, target } = await connectClient();
    try {
      const workflowId = projectWorkflowId(project);
      const handle = await client.workflow.start<typeof projectWorkflow>('projectWorkflow', {
        taskQueue: worker.taskQueue,
        workflowId,
        args: [{ plan }],
        staticSummary: `taskloop demo: ${plan.tasks.length} tasks on ${repo}`,
      });
      const ui = server.uiUrl ?? 'http://localhost:8233';
      log(`\nStarted project ${workflowId} with ${plan.tasks.length} tasks (concurrency ${plan.concurrency}):`);
      await watchProject(handle, log);
      const report = await handle.result();
      // What landed (and what waits): read from the tasks themselves, as `taskloop report` does.
      const lists = await readReviewAndLanding(client, report.tasks, Date.now());
      log(`\nReport for ${project}:\n${[formatProjectReport(report), ...formatReviewAndLanding(lists)].join('\n')}`);
      for (const line of await describeLearning(report, client)) log(line);
      log(`\nBranches with the commits (main holds what landed): git -C ${repo} log --oneline --all`);
      log(
        `Web UI: ${ui}/namespaces/${target.namespace}/workflows/${workflowId}  (filter tasks with: Project="${project}")`,
      );
      log(
        `The Temporal server keeps running at ${server.address} so the runs can be inspected (stop it with: taskloop server stop).`,
      );
      const cli = await findTemporalCli().catch(() => undefined);
      if (cli)
        for (const line of formatTemporalHints({
          bin: cli.path,
          address: server.address,
          project,
          taskIds: plan.tasks.map((task) => task.spec.id),
        }))
          log(line);
      if (values.json) console.log(JSON.stringify({ ...withTaskLinesJson(report), ...lists }, null, 2));
      return report.counts.COMPLETED === report.total ? 0 : 1;
    } finally {
      await connection.close();
      await worker.stop();
    }
  },
};
