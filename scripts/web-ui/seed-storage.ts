// Browser settings for a Web UI that is not running yet: the Temporal Web UI keeps its table columns in the
// browser's localStorage, which belongs to an origin (scheme, host, port), not to a server. A page of our own served
// on the Web UI's future port writes them into a Chromium profile that the screenshots then reuse.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { dumpPageDom, type PageShot } from './browser.js';

/** The Web UI's key for the workflow list's columns: `{ [namespace]: [{ label }] }`. */
export const workflowColumnsKey = 'namespace-workflow-table-columns';

/** The workflow list's columns for one namespace, as the Web UI stores them after "Configure Columns". */
export function workflowColumns(namespace: string, labels: readonly string[]): Record<string, string> {
  return { [workflowColumnsKey]: JSON.stringify({ [namespace]: labels.map((label) => ({ label })) }) };
}

/**
 * Writes `entries` into the localStorage of http://127.0.0.1:`port` in the Chromium profile `profile`. The port must
 * be free (the Web UI is started on it afterwards); the page says "seeded" once written, which is checked.
 */
export async function seedLocalStorage(
  browser: string,
  profile: string,
  port: number,
  entries: Record<string, string>,
): Promise<void> {
  const script = `for (const [k, v] of Object.entries(${JSON.stringify(entries)})) localStorage.setItem(k, v);
document.body.textContent = 'seeded ' + localStorage.length;`;
  const server = http.createServer((_request, response) => {
    response.setHeader('content-type', 'text/html; charset=utf-8');
    response.end(`<!doctype html><html><body><script>${script}</script></body></html>`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  try {
    const shot: PageShot = { width: 800, height: 600, settleMs: 1_000 };
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const dom = await dumpPageDom(browser, url, shot, profile);
    if (!dom.includes('seeded')) throw new Error(`could not write the Web UI's settings into ${profile}: ${dom}`);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
