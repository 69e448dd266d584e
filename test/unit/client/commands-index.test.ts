import { describe, expect, it } from 'vitest';
import { commands } from '../../../client/commands/index.js';

describe('the command index', () => {
  it.each(Object.keys(commands))('lists %s with the summary its module gives', async (name) => {
    const entry = commands[name];
    const command = await entry?.load();
    expect(command?.summary).toBe(entry?.summary);
    expect(command?.help).toMatch(new RegExp(`^Usage: taskloop ${name}\\b`));
  });
});
