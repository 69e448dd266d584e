import { describe, expect, it } from 'vitest';
import { progressLine, style } from '../../../../client/output/style.js';

function fakeStream(isTTY: boolean) {
  const written: string[] = [];
  return { isTTY, written, write: (text: string) => written.push(text) };
}

describe('terminal style', () => {
  it('colours only a terminal without NO_COLOR', () => {
    expect(style(fakeStream(true), {}).red('x')).toBe('\u001b[31mx\u001b[39m');
    expect(style(fakeStream(true), { NO_COLOR: '' }).red('x')).toBe('x');
    expect(style(fakeStream(false), {}).red('x')).toBe('x');
  });

  it('rewrites progress in place on a terminal', () => {
    const stream = fakeStream(true);
    const line = progressLine(stream, {});
    line.update('code');
    line.update('test');
    line.done();
    expect(stream.written).toEqual(['\r\u001b[2Kcode', '\r\u001b[2Ktest', '\n']);
  });

  it('prints each change as a plain line elsewhere, and no repeats', () => {
    const stream = fakeStream(false);
    const line = progressLine(stream, {});
    line.update('code');
    line.update('code');
    line.update('test');
    line.done();
    expect(stream.written).toEqual(['code\n', 'test\n']);
  });
});
