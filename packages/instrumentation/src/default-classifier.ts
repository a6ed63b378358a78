import { classifyCall } from '@argspan/core';
import type { Classifier } from './types.js';

/** The core classifier: flatten → residency → provenance → gate. Pure; never throws. */
export const defaultClassifier: Classifier = classifyCall;
