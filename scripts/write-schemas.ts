// Writes schemas/tasks-file.schema.json and schemas/eval-suite.schema.json from the zod schemas (run after changing a task or tasks-file field;
// a unit test fails while the committed file is out of date).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { projectRoot } from '../platform/paths.js';
import { tasksFileJsonSchema } from '../client/tasks-file/json-schema.js';
import { suiteJsonSchema } from '../domain/eval/suite-json-schema.js';

export const suiteSchemaPath = path.join(projectRoot, 'schemas', 'eval-suite.schema.json');
export const tasksFileSchemaPath = path.join(projectRoot, 'schemas', 'tasks-file.schema.json');

await writeFile(tasksFileSchemaPath, `${JSON.stringify(tasksFileJsonSchema(), null, 2)}\n`);
console.log(`wrote ${path.relative(projectRoot, tasksFileSchemaPath)}`);
await writeFile(suiteSchemaPath, `${JSON.stringify(suiteJsonSchema(), null, 2)}\n`);
console.log(`wrote ${path.relative(projectRoot, suiteSchemaPath)}`);
