// finish: the model says it is done; its summary becomes the coder result's summary.
import { z } from 'zod';
import { parseArguments } from './arguments.js';
import type { CoderTool } from './types.js';

const argsSchema = z.object({ summary: z.string().trim().min(1) });

export const finishTool: CoderTool = {
  spec: {
    name: 'finish',
    description: 'Call once the change is complete. The summary says what you changed and why; it is shown to the reviewer.',
    parameters: {
      type: 'object',
      properties: { summary: { type: 'string', description: 'What you changed and why, in a few sentences.' } },
      required: ['summary'],
      additionalProperties: false,
    },
  },
  async run(args) {
    const parsed = parseArguments('finish', argsSchema, args);
    if (!parsed.success) return { reply: parsed.error };
    return { reply: 'finished', finished: { summary: parsed.data.summary } };
  },
};
