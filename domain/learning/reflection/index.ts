export * from './gate.js';
export * from './failure-event.js';
export * from './skill-draft.js';
export * from './reflection-state.js';
export * from './distill-skill.js';
