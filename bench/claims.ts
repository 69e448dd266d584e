// bench/claims: 100 claims at once on one repository, through the claim activity's own function (no Temporal
// retries to hide a failure), counting the git errors. Each claim is a different task, as in a big project batch.
import { performance } from 'node:perf_hooks';
import { rm } from 'node:fs/promises';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createActivities } from '../activities/index.js';
import { makeRepo, makeTempDir } from '../test/support/git-repo.js';
import { atMost, count, ms, reference } from './lib/figures.js';
import type { Benchmark, BenchResult } from './lib/types.js';

const CLAIMS = 100;

export const claimsBenchmark: Benchmark = {
  name: 'claims',
  defaultRuns: 1,
  async run({ runs, log }): Promise<BenchResult> {
    let errors = 0;
    const messages = new Set<string>();
    let wallMs = 0;
    for (let run = 1; run <= runs; run += 1) {
      const repoPath = await makeRepo({ 'calc.py': 'def add(a, b):\n    return a + b\n' });
      const workDir = await makeTempDir();
      try {
        const activities = createActivities({
          hostId: 'bench',
          hostQueue: 'bench-host',
          workDir,
          eventsFile: `${workDir}/events.jsonl`,
        });
        const started = performance.now();
        const results = await Promise.allSettled(
          Array.from({ length: CLAIMS }, (_, index) =>
            // Each claim runs in an activity context of its own (it heartbeats), as it does on a worker.
            new MockActivityEnvironment().run(activities.claimWorktree, {
              workflowId: `task-bench-c${index}`,
              attempt: 1,
              taskId: `c${index}`,
              repoPath,
              baseRef: 'HEAD',
            }),
          ),
        );
        wallMs += performance.now() - started;
        for (const result of results) {
          if (result.status === 'fulfilled') continue;
          errors += 1;
          const lines = String((result.reason as Error).message ?? result.reason).split('\n');
          messages.add(lines.find((line) => /fatal|error/i.test(line)) ?? lines.join(' '));
        }
        log(
          `claims run ${run}/${runs}: ${results.filter((result) => result.status === 'rejected').length} of ${CLAIMS} failed`,
        );
      } finally {
        await Promise.all([repoPath, workDir].map((dir) => rm(dir, { recursive: true, force: true })));
      }
    }
    const examples = [...messages].slice(0, 3).map((message) => `- ${message.slice(0, 200)}`);
    return {
      figures: [
        atMost(
          `git errors in ${CLAIMS} concurrent claims on one repository (${runs === 1 ? 'one round' : `total of ${runs} rounds`})`,
          errors,
          0,
          count,
        ),
        reference(`  time for ${CLAIMS} claims`, ms(wallMs / runs)),
      ],
      sections: examples.length > 0 ? [`Claim errors (first of each kind):\n${examples.join('\n')}`] : [],
    };
  },
};
