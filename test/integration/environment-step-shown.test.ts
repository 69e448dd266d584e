// An environment build is a step a person can see (issue 69, E4): while it builds, `status` (text and --json), the
// board and `show` say "environment: building NAME" (from the prepareEnvironment activity's heartbeats), not "claim";
// once the tests ran, `show` names the environment they ran in, built or reused, and how long that took; and the
// cache's manifest records a package installed from the repository's files at the repository's own file, not at the
// staging folder's copy that is gone.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { environmentCacheDir, listEnvironments } from '../../activities/environments/index.js';
import { taskStatusJson } from '../../client/output/status-json.js';
import { formatTrajectory } from '../../client/show/format-text.js';
import { loadTrajectory } from '../../client/show/load-trajectory.js';
import { formatLiveEnvironment } from '../../client/tasks/live-environment.js';
import { readTask } from '../../client/tasks/read-task.js';
import { taskBoardRow } from '../../client/watch/watch-task.js';
import { fixTurns, makeCalcProject } from '../support/calc-project.js';
import { buildWheel } from '../support/python-wheel.js';
import { eventually, useTestTemporal } from './support/temporal.js';
import { git, startTestTask, taskOutcome, taskSpec } from './support/tasks.js';

const calcNeedingGreetlib = {
  'calc.py': 'def add(a, b):\n    return a - b\n',
  'tests/__init__.py': '',
  'tests/test_calc.py': 'import greetlib\nfrom calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n',
  'requirements.txt': 'pytest\n',
};

describe('the environment step, shown', () => {
  const t = useTestTemporal('environment-step-shown');

  it('status, --json, the board and show say "environment: building NAME" while it builds, then name it', async () => {
    const project = await makeCalcProject({ coder: fixTurns() }, calcNeedingGreetlib);
    await mkdir(path.join(project.repo, 'vendor'), { recursive: true });
    const wheel = await buildWheel(path.join(project.repo, 'vendor'), {
      name: 'greetlib',
      version: '1.0',
      module: 'greetlib',
      source: 'SIX = 6\n',
    });
    await git(project.repo, 'add', '-A');
    await git(project.repo, 'commit', '-q', '-m', 'vendor greetlib');
    // A set-up slow enough to be seen building.
    const environment = { setup: ['sleep 6', `uv pip install -r requirements.txt ./vendor/${wheel}`] };
    const spec = taskSpec({
      repo: project.repo,
      goal: 'Fix add in calc.py',
      models: { coder: `scripted:${project.scriptFile}` },
      maxRetries: 0,
      environment,
    });
    const handle = await startTestTask(t.client, t.host.taskQueue, spec);

    const building = await eventually(
      'the environment step to say it builds, with its name',
      async () => {
        const reading = await readTask(t.client, { handle, description: await handle.describe() });
        return 'environment' in reading && reading.environment?.step === 'building' && reading.environment.name
          ? reading
          : undefined;
      },
      60_000,
    );
    const live = building.environment!;
    expect(live.name).toMatch(/-[0-9a-f]{16}$/);
    expect(formatLiveEnvironment(live)).toMatch(new RegExp(`^environment: building ${live.name} \\(\\d+s\\)$`));
    expect(taskStatusJson(building)).toMatchObject({ environment: { step: 'building', name: live.name } });
    const row = taskBoardRow(building.state, new Date(), new Date(), live);
    expect(row).toMatchObject({ phase: 'env', note: expect.stringContaining(`environment: building ${live.name}`) });
    const during = await loadTrajectory(t.client, { handle, description: await handle.describe() });
    expect(formatTrajectory(during)).toContain(`environment: building ${live.name}`);

    const outcome = await taskOutcome(handle);
    expect(outcome.status, outcome.reason).toBe('COMPLETED');
    const shown = formatTrajectory(await loadTrajectory(t.client, { handle, description: await handle.describe() }));
    expect(shown).toMatch(new RegExp(`environment: ${live.name} \\(built in \\d+\\.\\d s\\)`));

    // The wheel was installed from the repository's files, copied for set-up into a staging folder since removed: the
    // manifest names the repository's own file.
    const manifest = listEnvironments(environmentCacheDir(t.host.workDir)).find((entry) => entry.name === live.name);
    const greetlib = manifest?.packages.find((line) => line.startsWith('greetlib'));
    expect(greetlib).toContain(`${path.resolve(project.repo)}/vendor/${wheel}`);
    expect(greetlib).not.toContain('.staging-');
    const url = greetlib?.split(' @ ')[1] ?? '';
    expect(existsSync(fileURLToPath(url)), url).toBe(true);

    // A second task finds it: show says reused.
    const again = await startTestTask(t.client, t.host.taskQueue, { ...spec, id: `${spec.id}-again` });
    expect((await taskOutcome(again)).status).toBe('COMPLETED');
    const reused = formatTrajectory(
      await loadTrajectory(t.client, { handle: again, description: await again.describe() }),
    );
    expect(reused).toContain(`environment: ${live.name} (reused: found in the cache in`);
  }, 300_000);
});
