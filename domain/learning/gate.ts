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

/**
 * The failure classes a coder can learn from: its code was wrong, it lacked context, or its approach was rejected.
 * Environment, model, budget and capability problems say nothing about how to code (issue 41: skills were distilled
 * from "max steps reached" and missing-key failures), so no skill is written from them.
 */
export const learnableFailureClasses: readonly string[] = ['code_defect', 'context_problem', 'replan'];

/** True for a failure class a skill may be distilled from. */
export const isLearnableFailure = (failureClass: string): boolean => learnableFailureClasses.includes(failureClass);
