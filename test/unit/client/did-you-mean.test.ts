// A mistyped command or flag is answered with the one meant, through the real bin; a word that is no typo gets none.
import { describe, expect, it } from 'vitest';
import { closestName, editDistance } from '../../../client/did-you-mean.js';
import { runTaskloop } from '../../support/cli.js';

describe('did you mean', () => {
  it('counts a swap of two neighbours as one edit', () => {
    expect(editDistance('stauts', 'status')).toBe(1);
    expect(editDistance('prot', 'port')).toBe(1);
    expect(editDistance('wait', 'wait')).toBe(0);
    expect(editDistance('', 'run')).toBe(3);
  });

  it('picks the closest name within a third of the word, or one it begins', () => {
    const commands = ['run', 'status', 'server', 'show', 'list', 'watch', 'retry'];
    expect(closestName('stauts', commands)).toBe('status');
    expect(closestName('serve', commands)).toBe('server');
    expect(closestName('lsit', commands)).toBe('list');
    expect(closestName('frobnicate', commands)).toBeUndefined();
    expect(closestName('x', commands)).toBeUndefined();
  });

  it('taskloop stauts names status; an unknown flag names the flag meant; exit 2 either way', async () => {
    const env = { ...process.env, NO_COLOR: '1' };
    // The last line: a stale dist/ adds a line of its own before it.
    const last = (text: string) => text.trim().split('\n').at(-1);
    const command = await runTaskloop(['stauts', 'x'], { env });
    expect(command.exitCode).toBe(2);
    expect(last(command.stderr)).toBe(
      'taskloop: unknown command "stauts"; did you mean status?; run taskloop --help for the list',
    );
    const flag = await runTaskloop(['run', '--wiat'], { env });
    expect(flag.exitCode).toBe(2);
    expect(last(flag.stderr)).toBe(
      "taskloop run: Unknown option '--wiat'; did you mean --wait? (see taskloop run --help)",
    );
    const none = await runTaskloop(['frobnicate'], { env });
    expect(last(none.stderr)).toBe('taskloop: unknown command "frobnicate"; run taskloop --help for the list');
  });
});
