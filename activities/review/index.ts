export { reviewChanges, type ReviewChangesInput } from './review-changes.js';
