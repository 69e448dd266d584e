import { describe, expect, it } from 'vitest';
import { takeGlobalFlags } from '../../../client/global-flags.js';

describe('global flags', () => {
  it('takes --address and --namespace anywhere on the line and leaves the rest to the command', () => {
    expect(takeGlobalFlags(['--address', 'h:1', 'status', 'task-a', '--namespace=ns', '--json'])).toEqual({
      rest: ['status', 'task-a', '--json'],
      env: { TEMPORAL_ADDRESS: 'h:1', TEMPORAL_NAMESPACE: 'ns' },
    });
  });

  it('turns --no-color into NO_COLOR and stops at --', () => {
    expect(takeGlobalFlags(['list', '--no-color', '--', '--address'])).toEqual({
      rest: ['list', '--', '--address'],
      env: { NO_COLOR: '1' },
    });
  });

  it('refuses a global flag without a value, naming the flag and an example', () => {
    expect(() => takeGlobalFlags(['status', '--address'])).toThrow(
      /--address needs a value, e\.g\. --address 127\.0\.0\.1:7233/,
    );
    expect(() => takeGlobalFlags(['--namespace', '--json'])).toThrow(/--namespace needs a value/);
  });
});
