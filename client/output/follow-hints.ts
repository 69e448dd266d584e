// Where to follow a task: the CLI command and, when Temporal runs locally, the Web UI page of the workflow.
import type { TemporalTarget } from '../../platform/connection.js';
import { probeAddress } from '../../platform/probe-address.js';

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]', '0.0.0.0']);

/** The Web UI's address: TEMPORAL_UI_URL when set, else the local dev server's UI (gRPC port + 1000). */
export function webUiBase(
  target: Pick<TemporalTarget, 'address'>,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  if (env.TEMPORAL_UI_URL) return env.TEMPORAL_UI_URL.replace(/\/+$/, '');
  const at = target.address.lastIndexOf(':');
  const host = at > 0 ? target.address.slice(0, at) : target.address;
  if (!LOCAL_HOSTS.has(host)) return undefined;
  const port = Number(target.address.slice(at + 1)) || 7233;
  return `http://localhost:${port + 1000}`;
}

/** The Web UI page of a workflow, when the UI's address is known. */
export function webUiUrl(
  target: Pick<TemporalTarget, 'address' | 'namespace'>,
  workflowId: string,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const base = webUiBase(target, env);
  const page = `namespaces/${encodeURIComponent(target.namespace)}/workflows/${encodeURIComponent(workflowId)}`;
  return base && `${base}/${page}`;
}

/**
 * The lines printed after a start without --wait. A guessed local Web UI is named only when something answers on
 * its port: a dev server started --headless has none, and a link to nothing is worse than no link.
 */
export async function formatFollowHints(
  target: Pick<TemporalTarget, 'address' | 'namespace'>,
  workflowId: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  let url = webUiUrl(target, workflowId, env);
  const base = webUiBase(target, env);
  if (url && base && !env.TEMPORAL_UI_URL) {
    const probe = await probeAddress(`127.0.0.1:${new URL(base).port}`, 300);
    if (probe.reachable !== true) url = undefined;
  }
  return [`follow it:  taskloop status ${workflowId}`, ...(url ? [`Web UI:     ${url}`] : [])].join('\n');
}
