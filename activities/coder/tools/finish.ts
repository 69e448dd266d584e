// finish: the model says it is done; its summary becomes the coder result's summary.
import { z } from 'zod';
import { defineTool } from './define-tool.js';

export const finishTool = defineTool({
  name: 'finish',
  capability: 'READ_REPOSITORY',
  description:
    'End your work once the change is complete; the summary says what you changed and why and is shown to the reviewer.',
  args: z.strictObject({ summary: z.string().trim().min(1).describe('What you changed and why, in a few sentences.') }),
  async run({ summary }) {
    return { reply: 'finished', finished: { summary } };
  },
});
