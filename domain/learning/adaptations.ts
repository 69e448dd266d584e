// Chooses what the next attempt's context changes, from this task's failures, its shape and similar tasks.
import type { FailurePattern, Strategy } from './patterns/types.js';

export interface Adaptation {
  strategy: Strategy;
  reason: string;
  source: 'own_attempts' | 'history' | 'task_shape';
}

export interface HistoryEntry {
  taskId: string;
  files: string[];
  /** Pattern types of the task's failed attempts (one per failure). */
  patterns: string[];
}

export interface ChooseAdaptationsInput {
  /** Patterns per earlier attempt of this task, in attempt order. */
  ownPatterns: FailurePattern[][];
  /** Earlier tasks of the project. */
  history: HistoryEntry[];
  taskFiles: string[];
  dependencyCount: number;
  testsAvailable: number;
  /** 0..1: share of the relevant function bodies already in the context. */
  functionBodyCoverage: number;
}

export const manyDependenciesAbove = 5;
export const fewTestsBelow = 3;
export const lowCoverageBelow = 0.5;
export const historicalFailuresAtLeast = 2;

/**
 * Strategies for the next attempt, one per strategy, in the order of the rules:
 * own earlier patterns, task shape, then failures of similar earlier tasks.
 * When several rules ask for the same strategy, the first keeps its source and the others join its reason.
 */
export function chooseAdaptations(input: ChooseAdaptationsInput): Adaptation[] {
  const candidates: Adaptation[] = [];
  input.ownPatterns.forEach((patterns, index) => {
    for (const p of patterns) {
      const on = p.symbols.length > 0 ? ` on ${p.symbols[0]}` : '';
      candidates.push({
        strategy: p.strategy,
        reason: `attempt ${index + 1} failed with ${p.type}${on}`,
        source: 'own_attempts',
      });
    }
  });
  if (input.dependencyCount > manyDependenciesAbove) {
    candidates.push({
      strategy: 'expand_dependency_context',
      reason: `the task has ${input.dependencyCount} dependencies`,
      source: 'task_shape',
    });
  }
  if (input.testsAvailable < fewTestsBelow) {
    candidates.push({
      strategy: 'increase_tests_shown',
      reason: `only ${input.testsAvailable} tests are available`,
      source: 'task_shape',
    });
  }
  if (input.functionBodyCoverage < lowCoverageBelow) {
    const share = Math.round(input.functionBodyCoverage * 100);
    candidates.push({
      strategy: 'include_source_excerpt',
      reason: `only ${share}% of the relevant function bodies are in context`,
      source: 'task_shape',
    });
  }
  candidates.push(...chooseFromHistory(input.history, input.taskFiles));
  return mergeByStrategy(candidates);
}

const historyRules: { pattern: string; strategy: Strategy }[] = [
  { pattern: 'cross_dep', strategy: 'expand_dependency_context' },
  { pattern: 'wrong_constant', strategy: 'prioritize_constants' },
];

function chooseFromHistory(history: readonly HistoryEntry[], taskFiles: readonly string[]): Adaptation[] {
  const ownKeys = new Set(taskFiles.flatMap(fileKeys));
  const similar = history.filter((entry) => entry.files.flatMap(fileKeys).some((key) => ownKeys.has(key)));
  return historyRules.flatMap(({ pattern, strategy }) => {
    const tasks = similar.filter((entry) => entry.patterns.includes(pattern));
    const count = tasks.reduce((sum, entry) => sum + entry.patterns.filter((p) => p === pattern).length, 0);
    if (count < historicalFailuresAtLeast) return [];
    const ids = tasks.map((entry) => entry.taskId).join(', ');
    return [{ strategy, reason: `${count} ${pattern} failures in similar tasks (${ids})`, source: 'history' as const }];
  });
}

/**
 * The keys a file is matched on: its normalised path and, for Python, its dotted module
 * (also without a leading `src.`, the usual src layout). A bare dotted name counts as a module.
 */
export function fileKeys(file: string): string[] {
  const path = file.trim().replace(/\\/g, '/').replace(/^\.\//, '');
  if (path === '') return [];
  if (!path.endsWith('.py')) return [path];
  const module = path
    .slice(0, -3)
    .replace(/\/__init__$/, '')
    .replace(/\//g, '.');
  const keys = [path, module];
  if (module.startsWith('src.')) keys.push(module.slice(4));
  return keys;
}

function mergeByStrategy(candidates: readonly Adaptation[]): Adaptation[] {
  const byStrategy = new Map<Strategy, { first: Adaptation; reasons: string[] }>();
  for (const c of candidates) {
    const entry = byStrategy.get(c.strategy);
    if (entry === undefined) byStrategy.set(c.strategy, { first: c, reasons: [c.reason] });
    else if (!entry.reasons.includes(c.reason)) entry.reasons.push(c.reason);
  }
  return [...byStrategy.values()].map(({ first, reasons }) => ({ ...first, reason: reasons.join('; also ') }));
}

const instructions: Record<Strategy, string> = {
  expand_dependency_context:
    'Earlier failures came from imports across modules: the source of the modules this task imports and is imported by is included below. Import only names that exist there, keep module paths exactly as the tests use them, and add any name the tests import where they expect it.',
  include_source_excerpt:
    'Earlier attempts used functions, classes or attributes that do not exist yet: the current bodies of the relevant functions and classes are included below. Implement every missing name in the module or class where the tests look for it, without renaming existing ones.',
  prioritize_constants:
    'Earlier attempts got literal values wrong: copy expected constants exactly from the tests (strings character for character, including case, punctuation and whitespace; numbers; ordering of items) instead of paraphrasing or recomputing them.',
  fix_signatures:
    'Earlier attempts called or defined functions with the wrong signature: match the exact signatures the tests use (function and parameter names, positional order and count, keyword-only arguments, defaults) before changing any behaviour.',
  increase_tests_shown:
    'More of the tests are shown below than usual: read every one of them, including helpers and fixtures they rely on, and make all of them pass, not only the first failure.',
  show_error_location:
    'An earlier attempt left a syntax error (its file and line are in the reason): read that file around that line first and fix the syntax there (brackets, quotes, colons, indentation) before changing anything else. Every test importing the file fails until it compiles, so one fix clears all of those errors.',
};

/** The instruction the context builder adds to the prompt for an adaptation, with its reason. */
export function describeAdaptation(adaptation: Adaptation): string {
  return `${instructions[adaptation.strategy]} (Why: ${adaptation.reason}.)`;
}
