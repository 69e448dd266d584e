// The skill-generation activity as the learning workflow calls it: shared queue, explicit timeouts, two attempts.
import { proxyActivities } from '@temporalio/workflow';
import type { LearningActivities } from '../../activities/learning/index.js';

// Two attempts: a model may answer better the second time; more would only spend model calls on a lost cause.
export const { generateSkill } = proxyActivities<LearningActivities>({
  startToCloseTimeout: '5 minutes',
  // The activity heartbeats while the model writes (activities/heartbeat-while.ts): a lost worker shows in 20 s.
  heartbeatTimeout: '20 seconds',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '10s', maximumAttempts: 2 },
});
