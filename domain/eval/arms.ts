// The arms of an eval: every combination of the coder models, agent versions and learning settings asked for.
import type { ArmSpec } from './records.js';

/** Built-in arm models: each instance's known fix, or turns that change nothing (the harness's own checks). */
export const builtinArmModels = ['oracle', 'noop'] as const;

export function planArms(input: { models: string[]; agents: (string | undefined)[]; learning: boolean[] }): ArmSpec[] {
  const arms: ArmSpec[] = [];
  for (const model of input.models)
    for (const agent of input.agents)
      for (const learning of input.learning) {
        const id = `a${arms.length + 1}`;
        const label = [
          model.replace(/^scripted:.*\//, 'scripted:'),
          agent ?? 'champion',
          `learning=${learning ? 'on' : 'off'}`,
        ].join(' ');
        arms.push({ id, label, model, learning, ...(agent === undefined ? {} : { agent }) });
      }
  return arms;
}
