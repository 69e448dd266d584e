import { describe, expect, it } from 'vitest';
import { commitMessage, runTrailer, withRunTrailer } from '../../../domain/commit-message.js';

const run = { workflowId: 'task-calc-a', attempt: 2 };

describe('commitMessage', () => {
  it("takes the goal's first line as the subject, the summary as the body, and ends with the run trailer", () => {
    expect(
      commitMessage({ ...run, goal: 'fix #218: honour cache_key\nmore words', summary: ' changed calc.py ' }),
    ).toBe('fix #218: honour cache_key\n\nchanged calc.py\n\nTaskloop-Run: task-calc-a/2\n');
    expect(commitMessage({ ...run, goal: `${'x'.repeat(80)}` })).toBe(
      `${'x'.repeat(72)}\n\nTaskloop-Run: task-calc-a/2\n`,
    );
  });

  it('adds the trailer once: a message that has it keeps it, an empty one names the run', () => {
    const made = commitMessage({ ...run, goal: 'fix it' });
    expect(withRunTrailer(made, run)).toBe(made);
    expect(withRunTrailer('fix it', run)).toBe(made);
    expect(withRunTrailer('  ', run)).toBe('taskloop: task-calc-a attempt 2\n\nTaskloop-Run: task-calc-a/2\n');
    expect(runTrailer(run)).toBe('Taskloop-Run: task-calc-a/2');
  });
});
