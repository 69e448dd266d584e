// The eval arm workflow's messages, defined once for the workflow, the CLI and tests.
import { defineQuery } from '@temporalio/workflow';
import type { ArmResult } from '../domain/eval/records.js';

/** The arm so far: every instance verified yet, in suite order, and whether the arm has finished. */
export const evalArmStateQuery = defineQuery<ArmResult>('evalArmState');
