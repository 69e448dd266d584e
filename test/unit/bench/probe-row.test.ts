import { describe, expect, it } from 'vitest';
import { probeBenchmark, probeFigures, type ProbeRecord } from '../../../bench/probe-row.js';

const record = (loopResolved: string[]): ProbeRecord => ({
  source: 'a probe run',
  model: 'local:m',
  instances: 3,
  draws: 30,
  passingDraws: 4,
  ceiling: ['a', 'b'],
  loopResolved,
});

describe('the probe as a bench row', () => {
  it('is met when the loop resolves every instance a first reply fixes', () => {
    const { figures, sections } = probeFigures(record(['a', 'b']));
    expect(figures[0]).toMatchObject({ value: '2 resolved, ceiling 2', met: true });
    expect(sections[0]).toContain('The loop reaches the ceiling');
  });

  it('says when the loop falls short, naming the instances', () => {
    const { figures, sections } = probeFigures(record(['a', 'c']));
    expect(figures[0]).toMatchObject({ met: false });
    expect(sections[0]).toContain('The loop falls short of the ceiling on b');
    expect(sections[0]).toContain('Beyond the ceiling (later turns or retries): c');
  });

  it('reads the recorded figures: the 1.5B one-line tier, 3 of 190 first replies, the loop at the ceiling', async () => {
    const { figures } = await probeBenchmark.run({} as never);
    expect(figures[0]).toMatchObject({ value: '1 resolved, ceiling 1', met: true });
  });
});
