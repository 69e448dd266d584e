// The landing's typed failure: the queue cannot land this change and no retry or new attempt can change that.
import { ApplicationFailure } from '@temporalio/common';

/** Non-retryable `LandingRefused`: the message names what is in the way and what a person does about it. */
export const landingRefused = (message: string): ApplicationFailure =>
  ApplicationFailure.create({ type: 'LandingRefused', message, nonRetryable: true });
