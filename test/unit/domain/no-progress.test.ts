import { describe, expect, it } from 'vitest';
import { callKey, startWatch, watchTurn, type TurnFacts } from '../../../domain/no-progress.js';

const idle = (calls: string[] = ['read_file {"path":"a.py"}']): TurnFacts => ({
  calls,
  changed: false,
  ranTests: false,
  truncated: false,
});

function run(turns: TurnFacts[]) {
  let watch = startWatch();
  for (const [index, turn] of turns.entries()) {
    const next = watchTurn(watch, turn);
    if (next.stop) return { at: index + 1, stop: next.stop };
    watch = next.watch;
  }
  return undefined;
}

describe('watchTurn', () => {
  it('stops at the third identical call in a row, naming it', () => {
    const stopped = run([idle(), idle(), idle()]);
    expect(stopped?.at).toBe(3);
    expect(stopped?.stop).toMatch(/same call was made 3 times in a row \(read_file \{"path":"a.py"\}\)/);
  });

  it('does not stop for different calls, or a change between repeats', () => {
    const reads = ['a', 'b', 'c', 'd', 'e'].map((name) => idle([`read_file {"path":"${name}.py"}`]));
    expect(run(reads)).toBeUndefined();
    const changed = { ...idle(['write_file {}']), changed: true };
    expect(run([idle(), idle(), changed, idle(), changed])).toBeUndefined();
  });

  it('stops after eight turns without a change or a test run; a test run resets the count', () => {
    const reads = (n: number) => Array.from({ length: n }, (_, i) => idle([`read_file {"path":"${i}.py"}`]));
    expect(run(reads(8))?.stop).toMatch(/8 turns in a row without a change to the code or a test run/);
    const tested = { ...idle(['run_tests {}']), ranTests: true };
    expect(run([...reads(7), tested, ...reads(7)])).toBeUndefined();
  });

  it('stops when calls are cut off three turns in a row', () => {
    const cut = { ...idle(['write_file {}']), truncated: true };
    expect(run([cut, cut, cut])?.stop).toMatch(/cut off by the output limit 3 turns in a row/);
    expect(run([cut, cut, idle(['list_files {}']), cut, cut])).toBeUndefined();
  });
});

describe('callKey', () => {
  it('is the same whatever the order of the arguments', () => {
    expect(callKey('read_file', { path: 'a', start: 1 })).toBe(callKey('read_file', { start: 1, path: 'a' }));
  });
});
