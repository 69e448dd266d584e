// Registers taskloop's search attributes that a namespace lacks. `start-dev --search-attribute` only registers them
// when it creates its database, so a server started on an older database file would miss attributes added since.
import { Connection } from '@temporalio/client';
import { encodeSearchAttributeIndexedValueType } from '@temporalio/common/lib/search-attributes.js';
import { taskloopSearchAttributes } from '../../workflows/search-attributes.js';

/** Adds the missing ones; returns their names (empty when all were there). */
export async function ensureSearchAttributes(address: string, namespace = 'default'): Promise<string[]> {
  const connection = await Connection.connect({ address, connectTimeout: '5s' });
  try {
    const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
    const missing = taskloopSearchAttributes.filter((key) => !customAttributes || !(key.name in customAttributes));
    if (missing.length === 0) return [];
    const searchAttributes: Record<string, NonNullable<ReturnType<typeof encodeSearchAttributeIndexedValueType>>> = {};
    for (const key of missing) {
      const type = encodeSearchAttributeIndexedValueType(key.type);
      if (type !== undefined) searchAttributes[key.name] = type;
    }
    await connection.operatorService.addSearchAttributes({ namespace, searchAttributes });
    return missing.map((key) => key.name);
  } finally {
    await connection.close();
  }
}
