// A failure event sent to the learning workflow: validated and bounded so history stays small.
import { z } from 'zod';
import {
  maxFailureDescriptionChars,
  maxFailureEvidenceChars,
  maxFailureFiles,
  maxFailureReasonChars,
} from './failure-limits.js';

export { maxFailureDescriptionChars, maxFailureEvidenceChars, maxFailureFiles, maxFailureReasonChars };

export const failureEventSchema = z.object({
  workflowId: z.string().min(1),
  taskId: z.string().min(1),
  attempt: z.number().int().min(1),
  /** The task goal; similarity of failures is judged on it. */
  description: z.string().min(1),
  failureClass: z.string().min(1),
  /** The top pytest pattern type of the attempt (e.g. `wrong_constant`), when there was one. */
  pattern: z.string().min(1).optional(),
  reason: z.string().default(''),
  /** A bounded excerpt of the test output or findings. */
  evidence: z.string().default(''),
  /** The host that ran the attempt (provenance in what the project learned). */
  host: z.string().min(1).optional(),
  /** Files the attempt changed, for the project's failure history (the first few are kept). */
  files: z.array(z.string()).optional(),
});
export type FailureEvent = z.infer<typeof failureEventSchema>;
export type FailureEventInput = z.input<typeof failureEventSchema>;

export type ParseFailureEventResult = { success: true; data: FailureEvent } | { success: false; error: string };

/** Keeps the head of a text (the reason or goal leads with what matters), marking the cut. */
export function clipHead(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Keeps the tail of a text (pytest puts its summary last), marking the cut. */
export function clipTail(text: string, max: number): string {
  return text.length <= max ? text : `…${text.slice(text.length - max + 1)}`;
}

/** Validates a failure event and clips its texts to their limits; the error names the field and the fix. */
export function parseFailureEvent(value: unknown): ParseFailureEventResult {
  const parsed = failureEventSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.') || '(the event)';
    return {
      success: false,
      error: `failure event field ${field}: ${issue.message}; send { workflowId, taskId, attempt >= 1, description, failureClass, reason?, evidence?, pattern?, host?, files? }`,
    };
  }
  const event = parsed.data;
  return {
    success: true,
    data: {
      ...event,
      description: clipHead(event.description, maxFailureDescriptionChars),
      reason: clipHead(event.reason, maxFailureReasonChars),
      evidence: clipTail(event.evidence, maxFailureEvidenceChars),
      ...(event.files === undefined ? {} : { files: event.files.slice(0, maxFailureFiles) }),
    },
  };
}

/** The buffer key of an event: one failure per workflow attempt, so a re-sent signal is recognised. */
export function failureEventId(event: Pick<FailureEvent, 'workflowId' | 'attempt'>): string {
  return `${event.workflowId}#${event.attempt}`;
}
