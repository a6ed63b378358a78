import type { Classifier } from './types.js';

/** Placeholder until the core classifier lands: always throws, so every call fails closed. */
export const defaultClassifier: Classifier = () => {
  throw new Error('classifyCall is not available');
};
