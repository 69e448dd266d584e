// The shape comparison of docs samples with real output: `…` within a line, `…` lines for left-out lines.
import { describe, expect, it } from 'vitest';
import { sampleMismatch } from '../../support/sample-shape.js';

const output = ['task t1: FAILED after 1 attempt', 'diff:', '  a', '  b', '', '  c', 'tests: failed (1.0 s)'].join(
  '\n',
);

describe('sampleMismatch', () => {
  it('accepts the same lines, a `…` for a varying part, and an indented `…` for left-out lines', () => {
    expect(sampleMismatch(output, output)).toBeUndefined();
    expect(
      sampleMismatch(output, 'task …: FAILED after 1 attempt\ndiff:\n  …\n  c\ntests: failed (…)'),
    ).toBeUndefined();
  });

  it('names the first line that differs, a line the output lacks, and output past the sample', () => {
    expect(sampleMismatch(output, 'task t1: COMPLETED\n…')).toContain('sample line 1 is\n  task t1: COMPLETED');
    expect(sampleMismatch('a', 'a\nb')).toBe('the output ends where the sample has line 2: b');
    expect(sampleMismatch(output, 'task t1: FAILED after 1 attempt\ndiff:')).toBe(
      'the output goes on past the sample, from line 3:   a',
    );
  });

  it('lets an indented `…` skip only lines of its indentation', () => {
    expect(sampleMismatch('x\n  a\nb\ny', 'x\n  …\ny')).toContain('sample line 3 is\n  y');
  });
});
