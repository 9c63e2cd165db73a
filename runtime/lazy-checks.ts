/**
 * The argument and result checks, as registry.ts imports them with the first tool call (see
 * lazy-catalog.ts for why a module of its own): a registry that only looks skills up never loads them.
 */
export { createResultCheck } from './results'
export { argsProblem, isValueSchema, resultProblem } from './value-problems'
