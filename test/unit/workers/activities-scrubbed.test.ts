// The secret scrub is only as good as its wiring: every activity the workers register must be the scrubbing wrapper,
// or a result naming a secret's value (a file name, a repository path in a failure) reaches workflow history.
import { MockActivityEnvironment } from '@temporalio/testing';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isScrubbingActivity } from '../../../activities/scrub-results.js';
import { workerActivities } from '../../../workers/create-workers.js';
import { makeTempDir, removeDirs } from '../../support/git-repo.js';

const dirs: string[] = [];
const secret = `wiredsecret${Math.random().toString(36).slice(2, 10)}`;
afterEach(async () => {
  delete process.env.WIRING_TEST_API_TOKEN;
  await removeDirs(dirs);
});

async function activitiesOfAWorker() {
  const workDir = await makeTempDir();
  dirs.push(workDir);
  const host = { hostId: 'host-wiring', hostQueue: 'taskloop-host-wiring', workDir };
  return workerActivities({ host, eventsFile: path.join(workDir, 'events.jsonl'), sandbox: undefined });
}

describe('the activities a worker registers', () => {
  it('are every one the secret-scrubbing wrapper', async () => {
    const activities = await activitiesOfAWorker();
    const names = Object.keys(activities);
    expect(names).toContain('claimWorktree');
    expect(names).toContain('runTests');
    expect(names.filter((name) => !isScrubbingActivity(activities[name as keyof typeof activities]))).toEqual([]);
  });

  it("scrub a secret-named worker variable's value from a real activity's failure", async () => {
    process.env.WIRING_TEST_API_TOKEN = secret; // secret-named: scrubbed without being declared
    const activities = await activitiesOfAWorker();
    const repoPath = path.join(dirs[0]!, `repo_${secret}`);
    const claim = { repoPath, baseRef: 'main', taskId: 't1', workflowId: 'wf-1', attempt: 1 };
    const failure: Error = await new MockActivityEnvironment().run(activities.claimWorktree, claim).then(
      () => new Error('the claim of a missing repository succeeded'),
      (error: unknown) => error as Error,
    );
    expect(failure).toBeInstanceOf(Error);
    expect(failure.message).toContain('repo_[redacted]');
    expect(JSON.stringify(failure)).not.toContain(secret);
  });
});
