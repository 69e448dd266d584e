import { describe, expect, it } from 'vitest';
import { splitCommandWords } from '../../../../client/tasks/command-words.js';

describe('splitCommandWords', () => {
  it('splits on runs of whitespace', () => {
    expect(splitCommandWords('  python3 -m   pytest\t-x ')).toEqual({
      success: true,
      data: ['python3', '-m', 'pytest', '-x'],
    });
  });

  it('keeps quoted words whole and drops the quotes', () => {
    expect(splitCommandWords(`pytest -k "add and not slow" -p 'no:cacheprovider'`)).toEqual({
      success: true,
      data: ['pytest', '-k', 'add and not slow', '-p', 'no:cacheprovider'],
    });
  });

  it('joins adjacent quoted and bare parts into one word, and keeps an empty quoted word', () => {
    expect(splitCommandWords(`--opt="a b"c ''`)).toEqual({ success: true, data: ['--opt=a bc', ''] });
  });

  it('honours backslash escapes outside quotes and the shell subset inside double quotes', () => {
    expect(splitCommandWords(String.raw`a\ b "x\"y" "c\d" 'e\f'`)).toEqual({
      success: true,
      data: ['a b', 'x"y', String.raw`c\d`, String.raw`e\f`],
    });
  });

  it('does not interpret shell operators: they are plain words', () => {
    expect(splitCommandWords('pytest; rm -rf / && echo $HOME')).toEqual({
      success: true,
      data: ['pytest;', 'rm', '-rf', '/', '&&', 'echo', '$HOME'],
    });
  });

  it('reports an unterminated quote', () => {
    const result = splitCommandWords('pytest -k "add');
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error).toContain('unterminated " quote');
  });
});
