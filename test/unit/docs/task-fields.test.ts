// docs/tasks-file.md lists every task field, and only those: its table follows the schema.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { taskSpecFieldsSchema } from '../../../domain/task-spec.js';
import { projectRoot } from '../../../platform/paths.js';

/** The field names of the first column of the table under "## Task fields". */
async function documentedFields(): Promise<string[]> {
  const page = await readFile(path.join(projectRoot, 'docs', 'tasks-file.md'), 'utf8');
  // Up to the next section: later ones (limits) have tables of their own.
  const start = page.indexOf('## Task fields');
  const end = page.indexOf('\n## ', start + 1);
  const section = page.slice(start, end === -1 ? undefined : end);
  const rows = section.split('\n').filter((line) => line.startsWith('| `'));
  return rows.flatMap((row) =>
    [...(row.split('|')[1] ?? '').matchAll(/`([A-Za-z]+)`/g)].map((match) => match[1] ?? ''),
  );
}

describe('the task fields of docs/tasks-file.md', () => {
  it('are the schema keys, plus dependsOn of a tasks file, each once', async () => {
    const fields = await documentedFields();
    expect(new Set(fields).size).toBe(fields.length);
    expect(fields.sort()).toEqual([...Object.keys(taskSpecFieldsSchema.shape), 'dependsOn'].sort());
  });
});
