/**
 * Worker thread of the foreign-call classifier pool (`classifier-pool.ts`): classifies each batch
 * of traces it is sent and sends the rows back, their typed arrays moved, not copied.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createValueHasher } from '@argspan/core';
import { classifyBatch } from './classify-batch.js';
import type { BatchRequest, BatchResult, WorkerSetup } from './classifier-pool.js';
import { ValueHashes } from './row-batch.js';

const setup = workerData as WorkerSetup;
const values = new ValueHashes(createValueHasher(setup.hashKey));
parentPort!.on('message', (request: BatchRequest) => {
  const rows = classifyBatch(request.traces, setup.policy, values);
  const result: BatchResult = { seq: request.seq, rows };
  parentPort!.postMessage(result, [rows.args.buffer, rows.hashes.buffer]);
});
