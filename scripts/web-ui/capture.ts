// The Web UI pages an operator uses, captured from a real browser: a Temporal dev server with its Web UI, a
// `taskloop worker`, the demo's fix-add (scripted coder) run to completion and fix-mean paused, then Chromium on the
// filtered workflow list (with taskloop's columns: the paused task is RUNNING to Temporal, PAUSED to taskloop),
// fix-add's history and timeline, and fix-mean's User Metadata (its current details: PAUSED, attempt 1 not started).
// The script that writes docs/images and the integration test share it.
import type { ResultPromise } from 'execa';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { uiColumns, webUiListUrl } from '../../client/commands/ui.js';
import { prepareDemoRepo } from '../../client/demo/prepare-repo.js';
import { buildListQuery } from '../../client/projects/list-query.js';
import { startDevServerOnFreePort } from '../../platform/server/dev-server.js';
import { findFreePort } from '../../platform/server/ports.js';
import { ensureTemporalCli } from '../../platform/server/temporal-cli.js';
import { seedLocalStorage, workflowColumns } from './seed-storage.js';
import { pauseTask, runDemoTask, startWorker, waitForTaskStatus } from './demo-tasks.js';
import { captureLivePage } from './cdp.js';
import { defaultShot, domText, dumpPageDom, findChromium, screenshotPage, type PageShot } from './browser.js';

/** The list's columns: the Web UI's own first ones, then taskloop's state, which Temporal's Status does not say. */
export const listColumns = ['Status', 'Workflow ID', ...uiColumns, 'Type', 'Start', 'End'];

export interface CapturedPage {
  name: string;
  url: string;
  png: string;
  /** The browser window's size, which the screenshot has. */
  width: number;
  height: number;
  /** The page's visible text as the browser rendered it (--dump-dom, or innerText with its frames' over CDP). */
  text: string;
}

export interface WebUiCapture {
  project: string;
  /** fix-add, run to completion. */
  workflowId: string;
  /** fix-mean, paused before its first node. */
  pausedWorkflowId: string;
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

export async function captureWebUi(options: CaptureOptions): Promise<WebUiCapture> {
  const log = options.log ?? (() => undefined);
  const shot = options.shot ?? defaultShot;
  const project = options.project ?? 'webui';
  const browser = await findChromium();
  const work = await mkdtemp(path.join(os.tmpdir(), 'taskloop-webui-'));
  await mkdir(options.outDir, { recursive: true });

  // The list's columns an operator adds once (`taskloop ui` names them), written before the Web UI takes the port.
  const uiPort = await findFreePort();
  const profile = path.join(work, 'chromium-profile');
  await seedLocalStorage(browser, profile, uiPort, workflowColumns('default', listColumns));
  const server = await startDevServerOnFreePort({
    cliPath: options.cliPath ?? (await ensureTemporalCli({ log })),
    uiPort,
    readyTimeoutMs: 90_000,
    logFile: path.join(work, 'server.log'),
  });
  const ui = server.uiUrl ?? '';
  log(`Temporal dev server at ${server.address}, Web UI at ${ui} (log, kept after a failure: ${work}/server.log)`);
  const env = {
    ...process.env,
    TEMPORAL_ADDRESS: server.address,
    TEMPORAL_NAMESPACE: 'default',
    TASKLOOP_HOME: path.join(work, 'home'),
    TASKLOOP_TASK_QUEUE: `webui-${path.basename(work)}`,
  };
  let worker: ResultPromise | undefined;
  let captured = false;
  try {
    const repo = await prepareDemoRepo(work);
    // Paused before any worker serves the queue, so it stops before its first node whatever the machine's speed.
    const pausedId = await runDemoTask('fix-mean', { repo, project, env, wait: false });
    await pauseTask(pausedId, env);
    worker = (await startWorker(env)).child;
    log(`running fix-add of project ${project} on ${repo}; ${pausedId} is paused`);
    const workflowId = await runDemoTask('fix-add', { repo, project, env, wait: true });
    const runId = await waitForTaskStatus(server.address, workflowId, 'COMPLETED');
    const pausedRunId = await waitForTaskStatus(server.address, pausedId, 'PAUSED');
    const query = buildListQuery({ project });
    if (!query.success) throw new Error(query.error);

    // Pages of closed workflows from the one-shot flags: the Web UI long-polls a running one's history, and
    // Chromium's virtual time (which waits for requests in flight) would never run out on the paused task's page.
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
      await screenshotPage(browser, target.url, png, pageShot, profile);
      const text = domText(await dumpPageDom(browser, target.url, pageShot, profile));
      log(`${png}: ${target.url}`);
      pages.push({ name: target.name, url: target.url, png, width: pageShot.width, height: pageShot.height, text });
    }
    // The paused task's User Metadata tab, over the DevTools protocol: captured once its current details (which the
    // Web UI asks the worker for) show the status the task was paused into.
    const pausedPage = {
      name: 'web-ui-paused-task-metadata',
      url: `${ui}/namespaces/default/workflows/${pausedId}/${pausedRunId}/user-metadata`,
      png: path.join(options.outDir, 'web-ui-paused-task-metadata.png'),
      width: shot.width,
      height: 900,
    };
    const live = await captureLivePage(
      browser,
      pausedPage.url,
      pausedPage.png,
      {
        width: pausedPage.width,
        height: pausedPage.height,
        waitForText: ['Current Details', 'PAUSED'],
        timeoutMs: 60_000,
      },
      profile,
    );
    log(`${pausedPage.png}: ${pausedPage.url}`);
    pages.push({ ...pausedPage, text: live.text.replace(/\s+/g, ' ').trim() });
    captured = true;
    return { project, workflowId, pausedWorkflowId: pausedId, pages };
  } finally {
    worker?.kill('SIGTERM');
    await worker?.catch(() => undefined);
    await server.stop();
    // Kept after a failure: the server's log and the task's repository say what went wrong.
    if (captured) await rm(work, { recursive: true, force: true });
  }
}
