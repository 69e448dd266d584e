import { describe, expect, it } from 'vitest';
import { isPytestCommand, withPytestOptions } from '../../../../activities/tests/pytest-command.js';

describe('isPytestCommand', () => {
  it('recognises pytest programs and python -m pytest, but not other commands', () => {
    expect(isPytestCommand(['pytest', '-q'])).toBe(true);
    expect(isPytestCommand(['.venv/bin/pytest'])).toBe(true);
    expect(isPytestCommand(['python', '-m', 'pytest'])).toBe(true);
    expect(isPytestCommand(['uv', 'run', 'pytest'])).toBe(true);
    expect(isPytestCommand(['python', '-m', 'unittest'])).toBe(false);
    expect(isPytestCommand(['make', 'test'])).toBe(false);
  });

  it('appends the JUnit path and disables the cache plugin', () => {
    expect(withPytestOptions(['pytest'], '/a/junit.xml')).toEqual([
      'pytest',
      '--junitxml=/a/junit.xml',
      '-p',
      'no:cacheprovider',
    ]);
  });
});
