import { classifySnapshot } from '@argspan/core/internal';
import type { Classifier } from './types.js';

/**
 * The core classifier (`classifyCall`: flatten → residency → provenance → gate; pure, never throws),
 * given the arguments' snapshot, which it then need not copy again.
 */
export const defaultClassifier: Classifier = classifySnapshot;
