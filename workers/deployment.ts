// Worker Deployment Versioning: every worker declares a version (deployment name + build id); task and project
// workflows stay pinned to the version that started them, so new workflow code only reaches new workflows.
import { Connection } from '@temporalio/client';
import type { WorkerDeploymentOptions } from '@temporalio/worker';
import type { TemporalTarget } from '../platform/connection.js';
import { buildId as defaultBuildId } from '../platform/version.js';

export interface DeploymentSettings {
  deploymentName: string;
  buildId: string;
  /** Make this version current as soon as it polls, even when another is current (otherwise only the first). */
  promote: boolean;
}

export type DeploymentResult =
  { success: true; data: DeploymentSettings | undefined } | { success: false; error: string };

/** TASKLOOP_DEPLOYMENT names the deployment (versioning is off without it); TASKLOOP_BUILD_ID overrides the build id. */
export function resolveDeployment(env: NodeJS.ProcessEnv, promote = env.TASKLOOP_PROMOTE === '1'): DeploymentResult {
  const deploymentName = env.TASKLOOP_DEPLOYMENT?.trim();
  if (!deploymentName) return { success: true, data: undefined };
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(deploymentName)) {
    return {
      success: false,
      error: `TASKLOOP_DEPLOYMENT=${JSON.stringify(deploymentName)} is not a deployment name; use letters, digits, '_' or '-' (no '.')`,
    };
  }
  const buildId = env.TASKLOOP_BUILD_ID?.trim() || defaultBuildId();
  if (!/^[A-Za-z0-9_.+-]{1,200}$/.test(buildId)) {
    return {
      success: false,
      error: `TASKLOOP_BUILD_ID=${JSON.stringify(buildId)} is not a build id; use letters, digits, '_', '.', '+' or '-'`,
    };
  }
  return { success: true, data: { deploymentName, buildId, promote } };
}

export function workerDeploymentOptions(
  settings: Pick<DeploymentSettings, 'deploymentName' | 'buildId'>,
): WorkerDeploymentOptions {
  return {
    version: { deploymentName: settings.deploymentName, buildId: settings.buildId },
    useWorkerVersioning: true,
    defaultVersioningBehavior: 'PINNED',
  };
}

/**
 * Waits until the server has seen this version poll, then makes it current when asked to or when the deployment
 * has no current version yet (a first deploy). Returns whether this version is current.
 */
export async function promoteWhenRegistered(
  target: TemporalTarget,
  settings: DeploymentSettings,
  identity: string,
  timeoutMs = 60_000,
): Promise<boolean> {
  const connection = await Connection.connect({ ...target.connectionOptions, connectTimeout: '5s' });
  const service = connection.workflowService;
  const request = { namespace: target.namespace, deploymentName: settings.deploymentName };
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const described = await service.describeWorkerDeployment(request).catch(() => undefined);
      const info = described?.workerDeploymentInfo;
      const known = info?.versionSummaries?.some((summary) => summary.deploymentVersion?.buildId === settings.buildId);
      if (known) {
        const current = info?.routingConfig?.currentDeploymentVersion?.buildId;
        if (current === settings.buildId) return true;
        if (current && !settings.promote) return false;
        const promoted = await service
          .setWorkerDeploymentCurrentVersion({
            ...request,
            buildId: settings.buildId,
            identity,
            conflictToken: described?.conflictToken,
            // Each host polls a queue of its own: the hosts of the current version have queues a new version's
            // hosts never poll, so the server's "missing task queues" protection would refuse every upgrade
            // across hosts (their work stays with the version pinned to it, and those hosts serve it).
            ignoreMissingTaskQueues: true,
          })
          .then(
            () => true,
            (error: unknown) => {
              // The version is known once one queue polls; the server refuses it as current until all its queues
              // (the shared one and this host's) have, so ask again shortly. Any other refusal is an error.
              if (String((error as Error)?.message).includes('missing active task queues')) return false;
              throw error;
            },
          );
        if (promoted) return true;
      }
      if (Date.now() > deadline)
        throw new Error(
          `version ${settings.buildId} of deployment ${settings.deploymentName} did not register within ${timeoutMs / 1000}s`,
        );
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    await connection.close();
  }
}

/** The long-lived workflows: they follow upgrades (workflows/index.ts), task and eval workflows stay pinned. */
const LONG_LIVED_TYPES = ['learningWorkflow', 'reflectionWorkflow', 'projectWorkflow'];

/**
 * Lets the running long-lived workflows of `taskQueue` that are still pinned (started by a release before they
 * followed upgrades) follow them too: an auto-upgrade override, so the current version answers their queries and
 * runs their next workflow task, and their old version can drain. Idempotent; returns how many it changed.
 */
export async function letLongLivedWorkflowsFollow(target: TemporalTarget, taskQueue: string): Promise<number> {
  const connection = await Connection.connect({ ...target.connectionOptions, connectTimeout: '5s' });
  const service = connection.workflowService;
  const types = LONG_LIVED_TYPES.map((type) => JSON.stringify(type)).join(', ');
  const query = `WorkflowType IN (${types}) AND ExecutionStatus = "Running" AND TaskQueue = ${JSON.stringify(taskQueue)} AND TemporalWorkflowVersioningBehavior = "Pinned"`;
  let changed = 0;
  try {
    let nextPageToken: Uint8Array | undefined;
    do {
      const page = await service.listWorkflowExecutions({ namespace: target.namespace, query, nextPageToken });
      for (const execution of page.executions ?? []) {
        const workflowId = execution.execution?.workflowId;
        if (!workflowId) continue;
        await service.updateWorkflowExecutionOptions({
          namespace: target.namespace,
          workflowExecution: { workflowId },
          workflowExecutionOptions: { versioningOverride: { autoUpgrade: true } },
          updateMask: { paths: ['versioning_override'] },
        });
        changed++;
      }
      nextPageToken = page.nextPageToken?.length ? page.nextPageToken : undefined;
    } while (nextPageToken);
  } finally {
    await connection.close();
  }
  return changed;
}
