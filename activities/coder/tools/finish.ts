// finish: the model says it is done; its summary becomes the coder result's summary. Coached runs (coaching.ts)
// have a finish before any change refused once, with why: small models announced fixes they never made.
import { z } from 'zod';
import { defineTool } from './define-tool.js';

export const finishTool = defineTool({
  name: 'finish',
  capability: 'READ_REPOSITORY',
  description:
    'End your work once the change is complete; the summary says what you changed and why and is shown to the reviewer.',
  args: z.strictObject({ summary: z.string().trim().min(1).describe('What you changed and why, in a few sentences.') }),
  async run({ summary }, context) {
    if (context.coaching?.refuseEmptyFinish && context.changedFiles.size === 0 && !context.emptyFinishRefused) {
      context.emptyFinishRefused = true;
      return {
        reply:
          'error: finish refused: no file has been changed yet, so the goal is not done and the tests would fail as ' +
          'before. Make the change with replace_in_file (or write_file), then call finish. If the goal truly needs ' +
          'no change, call finish again and say why in the summary.',
      };
    }
    return { reply: 'finished', finished: { summary } };
  },
});
