// `taskloop eval status [EVAL_ID]`: every eval arm workflow (or one eval's), with its progress from its state query
// while it runs, or from its result once it has finished.
import type { ArmResult } from '../../domain/eval/records.js';
import { evalArmStateQuery } from '../../workflows/eval-messages.js';
import type { evalArmWorkflow } from '../../workflows/eval-arm.js';
import { parseFlags } from '../args.js';
import { formatTable } from '../output/table.js';
import { withTaskClient } from '../tasks/task-client.js';

/**
 * One eval arm workflow; what only its worker can answer is null when no worker answered. `executionStatus` is
 * Temporal's status of the arm's workflow, the key `list --json` and `status --json` use; `status` repeats it under
 * its 0.1 name and goes in the release after 0.1.
 */
export interface EvalStatusRow {
  workflowId: string;
  executionStatus: string;
  /** @deprecated read executionStatus. */
  status: string;
  arm: string | null;
  done: number | null;
  total: number | null;
  resolved: number | null;
}

/** The row of one arm: its workflow's status, and its progress when it answered (`state`), else nulls. */
export function toEvalStatusRow(workflowId: string, executionStatus: string, state?: ArmResult): EvalStatusRow {
  return {
    workflowId,
    executionStatus,
    status: executionStatus,
    arm: state?.arm.label ?? null,
    done: state?.runs.length ?? null,
    total: state?.total ?? null,
    resolved: state?.runs.filter((run) => run.verification.resolved).length ?? null,
  };
}

export async function showEvalStatus(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags('eval status', argv, { json: { type: 'boolean' } }, true);
  const prefix = positionals[0] === undefined ? 'eval-' : `eval-${positionals[0]}-`;
  const rows = await withTaskClient(async ({ client }) => {
    const found: EvalStatusRow[] = [];
    const query = `WorkflowType = "evalArmWorkflow" AND WorkflowId STARTS_WITH "${prefix.replace(/"/g, '')}"`;
    for await (const execution of client.workflow.list({ query })) {
      const handle = client.workflow.getHandle<typeof evalArmWorkflow>(execution.workflowId);
      let state: ArmResult | undefined;
      try {
        state = execution.status.name === 'COMPLETED' ? await handle.result() : await handle.query(evalArmStateQuery);
      } catch {
        // A running arm answers through a worker; without one only its status is known.
      }
      found.push(toEvalStatusRow(execution.workflowId, execution.status.name, state));
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
          row.executionStatus,
          row.total === null ? '?' : `${row.done}/${row.total}`,
          row.resolved === null ? '?' : String(row.resolved),
          row.arm ?? '(no worker answered)',
        ]),
      ),
    );
  return 0;
}
