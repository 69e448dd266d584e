// Headless Chromium driven over the DevTools protocol, for a page that never goes quiet: the Web UI long-polls a
// running workflow's history, so the one-shot flags' virtual time never runs out on it. Instead this waits until
// the page shows the text asked for, then takes the screenshot. The protocol goes over --remote-debugging-pipe
// (file descriptors 3 and 4, NUL-separated JSON, as Puppeteer and Playwright use it): no WebSocket client needed.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';

interface Reply {
  id?: number;
  result?: Record<string, unknown>;
  error?: { message: string };
}

/**
 * The page's text and that of its frames: the Web UI renders user metadata (summary, details, current details) as
 * Markdown in iframes of its own origin (/render?content=…), which document.body.innerText leaves out.
 */
const visibleText = `[document, ...[...document.querySelectorAll('iframe')].map((frame) => frame.contentDocument)]
  .map((doc) => doc?.body?.innerText ?? '').join('\\n')`;

export interface LivePageShot {
  width: number;
  height: number;
  /** Text the page must show before the capture (all of it); the capture fails after `timeoutMs` without it. */
  waitForText: string[];
  timeoutMs: number;
}

export interface LivePage {
  /** The page's visible text with its same-origin frames' (see `visibleText`), once every `waitForText` was in it. */
  text: string;
}

/** Opens `url` in headless Chromium, waits for its text, saves a PNG of the window to `pngFile`. */
export async function captureLivePage(
  browser: string,
  url: string,
  pngFile: string,
  shot: LivePageShot,
  given?: string,
): Promise<LivePage> {
  const profile = given ?? (await mkdtemp(path.join(os.tmpdir(), 'taskloop-chromium-')));
  const args = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--hide-scrollbars'];
  const child = spawn(
    browser,
    [...args, '--no-first-run', '--mute-audio', `--user-data-dir=${profile}`, '--remote-debugging-pipe', 'about:blank'],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<never>((_, reject) =>
    child.on('exit', (code, signal) =>
      reject(new Error(`${browser} exited ${code ?? signal}: ${stderr.slice(-2000)}`)),
    ),
  );
  exited.catch(() => undefined);
  const toBrowser = child.stdio[3] as Writable;
  const fromBrowser = child.stdio[4] as Readable;
  const pending = new Map<number, (reply: Reply) => void>();
  let buffered = '';
  fromBrowser.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    let end: number;
    while ((end = buffered.indexOf('\0')) >= 0) {
      const reply = JSON.parse(buffered.slice(0, end)) as Reply;
      buffered = buffered.slice(end + 1);
      if (reply.id !== undefined) pending.get(reply.id)?.(reply);
    }
  });
  let nextId = 1;
  const send = async (method: string, params: object = {}, sessionId?: string) => {
    const id = nextId++;
    const replied = new Promise<Reply>((resolve) => pending.set(id, resolve));
    toBrowser.write(`${JSON.stringify({ id, method, params, sessionId })}\0`);
    const reply = await Promise.race([replied, exited]);
    pending.delete(id);
    if (reply.error) throw new Error(`${method} on ${url}: ${reply.error.message}`);
    return reply.result ?? {};
  };

  try {
    const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = (await send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
    await send('Emulation.setDeviceMetricsOverride', { ...shot, deviceScaleFactor: 1, mobile: false }, sessionId);
    await send('Page.navigate', { url }, sessionId);
    const deadline = Date.now() + shot.timeoutMs;
    let text = '';
    for (;;) {
      const { result } = (await send('Runtime.evaluate', { expression: visibleText }, sessionId)) as {
        result: { value?: string };
      };
      text = result.value ?? '';
      const missing = shot.waitForText.filter((wanted) => !text.includes(wanted));
      if (missing.length === 0) break;
      if (Date.now() > deadline)
        throw new Error(
          `${url} did not show ${JSON.stringify(missing)} within ${shot.timeoutMs} ms; it showed: ${text.slice(0, 2000)}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    // The text is there; a moment more lets the rest of the page (icons, fonts) finish drawing.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const { data } = (await send('Page.captureScreenshot', { format: 'png' }, sessionId)) as { data: string };
    await writeFile(pngFile, Buffer.from(data, 'base64'));
    return { text };
  } finally {
    child.kill('SIGTERM');
    await exited.catch(() => undefined);
    if (!given) await rm(profile, { recursive: true, force: true });
  }
}
