// The arms of an eval: every combination of the coder models, agent versions, learning settings and samples asked for.
import type { ArmSpec } from './records.js';

/** Built-in arm models: each instance's known fix, or turns that change nothing (the harness's own checks). */
export const builtinArmModels = ['oracle', 'noop'] as const;

export function planArms(input: {
  models: string[];
  agents: (string | undefined)[];
  learning: boolean[];
  /** Candidates an attempt draws (domain/samples.ts), one arm each; absent: [1]. */
  samples?: number[];
  /** The coder version a model gets when no agent is asked for (the registry's default for it; domain/agent-choice.ts). */
  defaultAgentOf?: (model: string) => string | undefined;
}): ArmSpec[] {
  const arms: ArmSpec[] = [];
  for (const model of input.models)
    for (const asked of input.agents)
      for (const learning of input.learning)
        for (const samples of input.samples ?? [1]) {
          const id = `a${arms.length + 1}`;
          const agent = asked ?? input.defaultAgentOf?.(model);
          const label = [
            model.replace(/^scripted:.*\//, 'scripted:'),
            agent ?? 'champion',
            `learning=${learning ? 'on' : 'off'}`,
            // One candidate an attempt is what every arm did before samples: its label (and the eval id) stay.
            ...(samples > 1 ? [`samples=${samples}`] : []),
          ].join(' ');
          arms.push({
            id,
            label,
            model,
            learning,
            ...(agent === undefined ? {} : { agent }),
            ...(samples > 1 ? { samples } : {}),
          });
        }
  return arms;
}
