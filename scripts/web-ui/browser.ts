// Headless Chromium from its command line: a page's screenshot and its rendered DOM, with no driver library.
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isExecutable } from '../../platform/server/temporal-cli.js';

const candidates = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

/** $CHROMIUM when set, else the first Chromium-like browser on PATH; an error naming the fix when there is none. */
export async function findChromium(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  if (env.CHROMIUM) {
    if (await isExecutable(env.CHROMIUM)) return env.CHROMIUM;
    throw new Error(`CHROMIUM=${JSON.stringify(env.CHROMIUM)} is not an executable file; unset it or point it at one`);
  }
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean))
    for (const name of candidates) if (await isExecutable(path.join(dir, name))) return path.join(dir, name);
  throw new Error(
    `no Chromium on PATH (looked for ${candidates.join(', ')}); install it (Debian: apt-get install -y chromium) or set CHROMIUM to its path`,
  );
}

export interface PageShot {
  /** The browser's window, which is also the screenshot's size. */
  width: number;
  height: number;
  /**
   * Virtual time the page gets before the capture: the Web UI is a single-page app that fetches its data after
   * load, and Chromium holds virtual time still while requests are in flight, so this waits for the data too.
   */
  settleMs: number;
}

export const defaultShot: PageShot = { width: 1440, height: 900, settleMs: 15_000 };

/**
 * Runs one headless Chromium, on `profile` when given (settings written there before, see seed-storage.ts), else
 * on a fresh profile of its own that is removed after. One browser at a time per profile: Chromium locks it.
 */
async function runChromium(browser: string, args: string[], shot: PageShot, given?: string): Promise<string> {
  const profile = given ?? (await mkdtemp(path.join(os.tmpdir(), 'taskloop-chromium-')));
  try {
    const result = await execa(
      browser,
      [
        '--headless',
        // Root in a container has no user namespace sandbox to give it.
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--hide-scrollbars',
        '--no-first-run',
        '--mute-audio',
        `--user-data-dir=${profile}`,
        `--window-size=${shot.width},${shot.height}`,
        `--virtual-time-budget=${shot.settleMs}`,
        ...args,
      ],
      { timeout: shot.settleMs + 90_000, reject: false, stdin: 'ignore' },
    );
    // Chromium takes the timeout's SIGTERM as a normal shutdown and exits 0, so a timeout is checked on its own.
    if (result.timedOut)
      throw new Error(
        `${browser} ${args.join(' ')} did not settle in ${shot.settleMs + 90_000} ms (a page that keeps a request open, such as a running workflow's, never lets virtual time run out)`,
      );
    if (result.exitCode !== 0)
      throw new Error(`${browser} ${args.join(' ')} exited ${result.exitCode ?? result.signal}: ${result.stderr}`);
    return result.stdout;
  } finally {
    if (!given) await rm(profile, { recursive: true, force: true });
  }
}

/** Saves a PNG of the page at `url` as it looks once its data has loaded. */
export async function screenshotPage(
  browser: string,
  url: string,
  pngFile: string,
  shot = defaultShot,
  profile?: string,
) {
  await runChromium(browser, [`--screenshot=${pngFile}`, url], shot, profile);
  if (!existsSync(pngFile)) throw new Error(`${browser} wrote no screenshot of ${url} to ${pngFile}`);
}

/** The page's DOM after its scripts ran (what the screenshot shows, as HTML). */
export function dumpPageDom(browser: string, url: string, shot = defaultShot, profile?: string): Promise<string> {
  return runChromium(browser, ['--dump-dom', url], shot, profile);
}

/** The visible words of a dumped DOM: tags, scripts and styles removed, entities and whitespace collapsed. */
export function domText(html: string): string {
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}
