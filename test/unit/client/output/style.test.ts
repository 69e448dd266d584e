import { describe, expect, it } from 'vitest';
import { progressLine, style } from '../../../../client/output/style.js';

function fakeStream(isTTY: boolean) {
  const written: string[] = [];
  return { isTTY, written, write: (text: string) => written.push(text) };
}

describe('terminal style', () => {
  it('colours a terminal unless NO_COLOR holds something (an empty one is as if unset)', () => {
    expect(style(fakeStream(true), {}).red('x')).toBe('\u001b[31mx\u001b[39m');
    expect(style(fakeStream(true), { NO_COLOR: '' }).red('x')).toBe('\u001b[31mx\u001b[39m');
    expect(style(fakeStream(true), { NO_COLOR: '1' }).red('x')).toBe('x');
    expect(style(fakeStream(false), {}).red('x')).toBe('x');
  });

  it('follows FORCE_COLOR, even into a pipe, but a non-empty NO_COLOR wins', () => {
    expect(style(fakeStream(false), { FORCE_COLOR: '1' }).red('x')).toBe('\u001b[31mx\u001b[39m');
    expect(style(fakeStream(true), { FORCE_COLOR: '0' }).red('x')).toBe('x');
    expect(style(fakeStream(true), { FORCE_COLOR: 'false' }).red('x')).toBe('x');
    expect(style(fakeStream(false), { FORCE_COLOR: '' }).red('x')).toBe('x');
    expect(style(fakeStream(false), { FORCE_COLOR: '1', NO_COLOR: '1' }).red('x')).toBe('x');
  });

  it('never redraws in place into a pipe, even with FORCE_COLOR', () => {
    const stream = fakeStream(false);
    const line = progressLine(stream, { FORCE_COLOR: '1' });
    line.update('code');
    expect(stream.written).toEqual(['code\n']);
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
