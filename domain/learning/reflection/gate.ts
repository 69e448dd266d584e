// The learning gate: which agent roles may learn from their failures (the reference's capability gate).
import { z } from 'zod';

/** `roles` lists the roles that learn; `*` lets every role learn. */
export const learningConfigSchema = z.object({
  enabled: z.boolean().default(true),
  roles: z.array(z.string().min(1)).default(() => ['coder']),
});
export type LearningConfig = z.infer<typeof learningConfigSchema>;

/** True when learning is on and the role is listed (or `*` is). */
export function mayLearn(config: LearningConfig, role: string): boolean {
  return config.enabled && (config.roles.includes(role) || config.roles.includes('*'));
}
