// `taskloop eval status [EVAL_ID]`: every eval arm workflow (or one eval's), with its progress from its state query
// while it runs, or from its result once it has finished.
import type { ArmResult } from '../../domain/eval/records.js';
import { evalArmStateQuery } from '../../workflows/eval-messages.js';
import type { evalArmWorkflow } from '../../workflows/eval-arm.js';
import { parseFlags } from '../args.js';
import { formatTable } from '../output/table.js';
import { withTaskClient } from '../tasks/task-client.js';

interface Row {
  workflowId: string;
  status: string;
  arm?: string;
  done?: number;
  total?: number;
  resolved?: number;
}

export async function showEvalStatus(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags('eval status', argv, { json: { type: 'boolean' } }, true);
  const prefix = positionals[0] === undefined ? 'eval-' : `eval-${positionals[0]}-`;
  const rows = await withTaskClient(async ({ client }) => {
    const found: Row[] = [];
    const query = `WorkflowType = "evalArmWorkflow" AND WorkflowId STARTS_WITH "${prefix.replace(/"/g, '')}"`;
    for await (const execution of client.workflow.list({ query })) {
      const handle = client.workflow.getHandle<typeof evalArmWorkflow>(execution.workflowId);
      const row: Row = { workflowId: execution.workflowId, status: execution.status.name };
      try {
        const state: ArmResult =
          execution.status.name === 'COMPLETED' ? await handle.result() : await handle.query(evalArmStateQuery);
        Object.assign(row, {
          arm: state.arm.label,
          done: state.runs.length,
          total: state.total,
          resolved: state.runs.filter((run) => run.verification.resolved).length,
        });
      } catch {
        // A running arm answers through a worker; without one only its status is known.
      }
      found.push(row);
    }
    return found.sort((a, b) => a.workflowId.localeCompare(b.workflowId));
  });
  if (values.json) console.log(JSON.stringify(rows, null, 2));
  else if (rows.length === 0) console.log(`no eval found${positionals[0] ? ` with id ${positionals[0]}` : ''}`);
  else
    console.log(
      formatTable(
        ['workflow', 'status', 'done', 'resolved', 'arm'],
        rows.map((row) => [
          row.workflowId,
          row.status,
          row.total === undefined ? '?' : `${row.done}/${row.total}`,
          row.resolved === undefined ? '?' : String(row.resolved),
          row.arm ?? '(no worker answered)',
        ]),
      ),
    );
  return 0;
}
