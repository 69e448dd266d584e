// `taskloop ui`: the Web UI address of taskloop's workflow list, filtered like `taskloop list`, and the columns to
// add once and save as a view (the Web UI keeps saved views and columns in the browser, not in a URL).
import { resolveTemporalTarget } from '../../platform/connection.js';
import { parseFlags } from '../args.js';
import { UsageError } from '../cli-errors.js';
import { webUiBase } from '../output/follow-hints.js';
import { buildListQuery } from '../projects/list-query.js';
import type { Command } from './command.js';

/** The search attributes worth a column: what Temporal's own Status (RUNNING for a paused task) does not say. */
export const uiColumns = ['TaskStatus', 'Phase', 'Attempt', 'FailureClass'] as const;

const help = `Usage: taskloop ui [--status S] [--project P] [--class C] [--type task|project] [--json]

Prints the Web UI address of taskloop's workflows, filtered as \`taskloop list\` filters them, and how to add
the columns ${uiColumns.join(', ')} (the task's own status, phase, attempt and failure class) and save it as a
view. The UI is TEMPORAL_UI_URL when set, else the local dev server's (the frontend's port + 1000). Contacts nothing.

  --status S    a task's own status: RUNNING, PAUSED, WAITING_FOR_HINT, AWAITING_APPROVAL, COMPLETED, FAILED, CANCELLED
  --project P   the tasks of a project and the project itself
  --class C     the failure class of a task's last failure
  --type T      task or project
  --json        {"url", "query", "columns"}

Exit codes: 0 printed, 2 a bad flag value, or a remote server without TEMPORAL_UI_URL.`;

const options = {
  status: { type: 'string' },
  project: { type: 'string' },
  class: { type: 'string' },
  type: { type: 'string' },
  json: { type: 'boolean' },
} as const;

/** The list page with the query in its address (the Web UI reads `query` on load). */
export function webUiListUrl(base: string, namespace: string, query: string): string {
  return `${base}/namespaces/${encodeURIComponent(namespace)}/workflows?query=${encodeURIComponent(query)}`;
}

export const uiCommand: Command = {
  summary: "print the Web UI address of taskloop's workflows, with the columns to show",
  help,
  async run(argv) {
    const { values } = parseFlags('ui', argv, options);
    const query = buildListQuery({
      status: values.status,
      project: values.project,
      failureClass: values.class,
      type: values.type,
    });
    if (!query.success) throw new UsageError(`taskloop ui: ${query.error}`);
    const target = resolveTemporalTarget();
    const base = webUiBase(target);
    if (!base)
      throw new UsageError(
        `taskloop ui: the Web UI of ${target.address} is not known; set TEMPORAL_UI_URL to its address (e.g. https://cloud.temporal.io or http://temporal-ui:8080)`,
      );
    const url = webUiListUrl(base, target.namespace, query.data);
    if (values.json) {
      console.log(JSON.stringify({ url, query: query.data, columns: uiColumns }));
      return 0;
    }
    console.log(url);
    console.log(
      `Once, in that page: the columns button (⚙ at the table's right) → add ${uiColumns.join(', ')}; then "Save as View" keeps the filter and columns.`,
    );
    return 0;
  },
};
