// `taskloop list` as a terminal table.
import type { WorkflowRow } from '../projects/list-workflows.js';
import { formatTable } from './table.js';

export function formatWorkflowList(rows: WorkflowRow[]): string {
  if (rows.length === 0) return 'no taskloop workflows match';
  const table = rows.map((row) => [
    row.workflowId,
    row.type,
    row.status,
    row.phase ?? '',
    row.attempt === null ? '' : String(row.attempt),
    row.failureClass ?? '',
    row.startTime.replace('T', ' ').replace(/\.\d+Z$/, 'Z'),
  ]);
  return formatTable(['workflow id', 'type', 'status', 'phase', 'attempt', 'class', 'started'], table);
}
