import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  blocksNamed,
  enclosingBlock,
  numberedLines,
  pythonBlocks,
} from '../../../../domain/evidence-first/python-blocks.js';

const parser = readFileSync(
  new URL('../../../fixtures/small-coder/tomli-load-text-mode/_parser.py', import.meta.url),
  'utf8',
);

describe('python blocks', () => {
  it("finds the function a traceback line falls in, whole, across a multi-line signature (tomli's load)", () => {
    const block = enclosingBlock(parser, 77);
    expect(block).toMatchObject({ name: 'load', kind: 'def' });
    const lines = parser.split('\n');
    expect(lines[(block?.start ?? 0) - 1]).toMatch(/^def load\(/);
    // The block ends where loads begins (blank lines between are not part of it).
    expect(lines[(block?.end ?? 0) - 1]?.trim()).not.toBe('');
    expect(lines.slice(block?.end ?? 0).find((line) => line.trim() !== '')).toMatch(/^def loads\(/);
  });

  it('finds a definition by name, and the innermost function over its class', () => {
    const source = [
      'class Cache:',
      '    """Doc.',
      'not code at column 0',
      '    """',
      '    @property',
      '    def size(self):',
      '        return 1',
      '',
      '    def clear(self):',
      '        pass',
      'x = 1',
    ].join('\n');
    expect(blocksNamed(source, 'size')).toEqual([{ name: 'size', kind: 'def', start: 5, end: 7 }]);
    expect(blocksNamed(source, 'Cache')).toEqual([{ name: 'Cache', kind: 'class', start: 1, end: 10 }]);
    expect(enclosingBlock(source, 10)?.name).toBe('clear');
    expect(enclosingBlock(source, 3)?.name).toBe('Cache');
    expect(enclosingBlock(source, 11)).toBeUndefined();
    expect(pythonBlocks(source).map((block) => block.name)).toEqual(['Cache', 'size', 'clear']);
  });

  it('numbers lines the way read_file does', () => {
    expect(numberedLines('a\nb\nc\n', 2, 3)).toBe('2\tb\n3\tc');
  });
});
