// The JSON Schema of an eval suite for editors (YAML language server, VS Code), generated from the zod schema.
import { z } from 'zod';
import { suiteSchema } from './suite.js';

export function suiteJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(suiteSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return {
    ...schema,
    title: 'taskloop eval suite',
    description:
      'Real bug fixes as instances: repository, base ref or upstream fix commit, goal, FAIL_TO_PASS and PASS_TO_PASS pytest node ids.',
  };
}
