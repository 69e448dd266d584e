// Replaces workflows/search-attributes.ts in the workflow tier's bundle: the time-skipping test server knows only
// its predefined attributes (it has no operator service to register taskloop's), so each key maps onto one of them.
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

const keyword = defineSearchAttributeKey('CustomKeywordField', SearchAttributeType.KEYWORD);

export const TaskIdKey = keyword;
export const ProjectKey = keyword;
export const PhaseKey = keyword;
export const TaskStatusKey = keyword;
export const FailureClassKey = keyword;
export const FailurePatternKey = keyword;
export const AttemptKey = defineSearchAttributeKey('CustomIntField', SearchAttributeType.INT);

export const taskloopSearchAttributes = [TaskIdKey, AttemptKey] as const;
