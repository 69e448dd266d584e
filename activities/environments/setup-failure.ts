// The one failure of the environment step: non-retryable, an environment problem (the set-up or the worker must change).
import { ApplicationFailure } from '@temporalio/common';

export const setupFailure = (message: string) =>
  ApplicationFailure.create({ type: 'EnvironmentSetupFailed', nonRetryable: true, message });
