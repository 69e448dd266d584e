// How much of a failure event travels to the learning workflow. Apart from the event's schema: the task workflow
// reads these, and a zod import here would be evaluated again for every task (workflows/index.ts).
export const maxFailureEvidenceChars = 2000;
export const maxFailureReasonChars = 500;
export const maxFailureDescriptionChars = 1000;
export const maxFailureFiles = 8;
