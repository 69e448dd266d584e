// The Web UI pages an operator uses, captured from a real browser: a Temporal dev server with its Web UI, a
// `taskloop worker`, the demo's fix-add task (scripted coder) run to completion, then Chromium on the filtered
// workflow list and on the task's page. The script that writes docs/images and the integration test share it.
import { Client, Connection } from '@temporalio/client';
import { execa, type ResultPromise } from 'execa';
import { mkdir, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { webUiListUrl } from '../../client/commands/ui.js';
import { exampleDir, prepareDemoRepo } from '../../client/demo/prepare-repo.js';
import { buildListQuery } from '../../client/projects/list-query.js';
import { taskWorkflowId } from '../../domain/task-spec.js';
import { projectRoot } from '../../platform/paths.js';
import { startDevServerOnFreePort } from '../../platform/server/dev-server.js';
import { findFreePort } from '../../platform/server/ports.js';
import { ensureTemporalCli } from '../../platform/server/temporal-cli.js';
import { defaultShot, domText, dumpPageDom, findChromium, screenshotPage, type PageShot } from './browser.js';

const taskloopBin = path.join(projectRoot, 'bin', 'taskloop.js');

export interface CapturedPage {
  name: string;
  url: string;
  png: string;
  /** The browser window's size, which the screenshot has. */
  width: number;
  height: number;
  /** The page's visible text as the browser rendered it (from --dump-dom). */
  text: string;
}

export interface WebUiCapture {
  project: string;
  taskId: string;
  workflowId: string;
  pages: CapturedPage[];
}

export interface CaptureOptions {
  /** Where the PNGs go (created when missing). */
  outDir: string;
  /** The project name shown in the pages; a fixed one keeps the committed images' text stable. */
  project?: string;
  shot?: PageShot;
  /** The `temporal` CLI to run the dev server with (default: found or installed as `taskloop server` does). */
  cliPath?: string;
  log?: (line: string) => void;
}

/**
 * Starts `taskloop worker` as its own process, resolved once it serves its queue. Wrapped in an object because the
 * child is a thenable that an async function's return would otherwise await to its end.
 */
async function startWorker(env: NodeJS.ProcessEnv): Promise<{ child: ResultPromise }> {
  const child = execa('node', [taskloopBin, 'worker', '--grace', '1s'], { env, all: true, reject: false });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.all?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('serving task queues')) resolve();
    });
    void child.then(() => reject(new Error(`taskloop worker exited before serving:\n${output}`)));
  });
  return { child };
}

/** The demo's fix-add task as `taskloop run --wait` runs it: a wrong edit, a test run, the fix, review, commit. */
async function runFixAdd(repo: string, project: string, env: NodeJS.ProcessEnv): Promise<void> {
  const result = await execa(
    'node',
    [
      taskloopBin,
      'run',
      '--repo',
      repo,
      '--project',
      project,
      '--id',
      'fix-add',
      '--goal',
      'Fix calc.add: it subtracts instead of adding (tests/test_calc.py::test_add fails).',
      '--model',
      `scripted:${path.join(exampleDir, 'scripts', 'fix-add.json')}`,
      '--test-command',
      "python3 -m pytest -q tests/test_calc.py -k 'add or mul'",
      '--acceptance',
      'tests/test_calc.py::test_add',
      '--wait',
    ],
    { env, all: true, reject: false, timeout: 240_000 },
  );
  if (result.exitCode !== 0) throw new Error(`taskloop run fix-add exited ${result.exitCode}:\n${result.all}`);
}

export async function captureWebUi(options: CaptureOptions): Promise<WebUiCapture> {
  const log = options.log ?? (() => undefined);
  const shot = options.shot ?? defaultShot;
  const project = options.project ?? 'webui';
  const browser = await findChromium();
  const work = await mkdtemp(path.join(os.tmpdir(), 'taskloop-webui-'));
  await mkdir(options.outDir, { recursive: true });

  const server = await startDevServerOnFreePort({
    cliPath: options.cliPath ?? (await ensureTemporalCli({ log })),
    uiPort: await findFreePort(),
    readyTimeoutMs: 90_000,
    logFile: path.join(work, 'server.log'),
  });
  const ui = server.uiUrl ?? '';
  log(`Temporal dev server at ${server.address}, Web UI at ${ui} (log: ${work}/server.log)`);
  const env = {
    ...process.env,
    TEMPORAL_ADDRESS: server.address,
    TEMPORAL_NAMESPACE: 'default',
    TASKLOOP_HOME: path.join(work, 'home'),
    TASKLOOP_TASK_QUEUE: `webui-${path.basename(work)}`,
  };
  let worker: ResultPromise | undefined;
  try {
    worker = (await startWorker(env)).child;
    const repo = await prepareDemoRepo(work);
    log(`running fix-add of project ${project} on ${repo}`);
    await runFixAdd(repo, project, env);
    const workflowId = taskWorkflowId({ project, id: 'fix-add' });
    const connection = await Connection.connect({ address: server.address });
    const { runId } = await new Client({ connection }).workflow
      .getHandle(workflowId)
      .describe()
      .finally(() => connection.close());
    const query = buildListQuery({ project });
    if (!query.success) throw new Error(query.error);

    const taskPage = `${ui}/namespaces/default/workflows/${workflowId}/${runId}`;
    // Each page's window is tall enough for what an operator looks at: the list's rows, every history event.
    const targets = [
      { name: 'web-ui-task-list', url: webUiListUrl(ui, 'default', query.data), height: 600 },
      { name: 'web-ui-task-history', url: `${taskPage}/history`, height: 1400 },
      { name: 'web-ui-task-timeline', url: `${taskPage}/timeline`, height: 960 },
    ];
    const pages: CapturedPage[] = [];
    for (const target of targets) {
      const png = path.join(options.outDir, `${target.name}.png`);
      const pageShot = { ...shot, height: target.height };
      await screenshotPage(browser, target.url, png, pageShot);
      const text = domText(await dumpPageDom(browser, target.url, pageShot));
      log(`${png}: ${target.url}`);
      pages.push({ name: target.name, url: target.url, png, width: pageShot.width, height: pageShot.height, text });
    }
    return { project, taskId: 'fix-add', workflowId, pages };
  } finally {
    worker?.kill('SIGTERM');
    await worker?.catch(() => undefined);
    await server.stop();
  }
}
