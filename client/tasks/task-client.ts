// A Temporal client for one CLI command, always closed afterwards, whatever the command did.
import type { Client } from '@temporalio/client';
import { connectClient, type TemporalTarget } from '../../platform/connection.js';

export interface TaskSession {
  client: Client;
  target: TemporalTarget;
}

export async function withTaskClient<T>(
  use: (session: TaskSession) => Promise<T>,
  options: { connectTimeoutMs?: number } = {},
): Promise<T> {
  const { client, connection, target } = await connectClient(process.env, options);
  try {
    return await use({ client, target });
  } finally {
    await connection.close();
  }
}
