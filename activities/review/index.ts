export { reviewChanges, reviewDiff, type ReviewChangesInput } from './review-changes.js';
