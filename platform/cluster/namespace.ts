// Registers the namespace taskloop runs in, when the cluster lacks it (a fresh database has only temporal-system).
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time.js';

/** Registers `namespace` with this retention (days) unless it exists; returns true when it made it. */
export async function ensureNamespace(address: string, namespace: string, retentionDays: number): Promise<boolean> {
  const connection = await Connection.connect({ address, connectTimeout: '5s' });
  try {
    try {
      await connection.workflowService.describeNamespace({ namespace });
      return false;
    } catch (error) {
      if ((error as { code?: number }).code !== 5) throw error; // 5: NOT_FOUND
    }
    await connection.workflowService.registerNamespace({
      namespace,
      workflowExecutionRetentionPeriod: msToTs(`${retentionDays} days`),
    });
    return true;
  } finally {
    await connection.close();
  }
}
