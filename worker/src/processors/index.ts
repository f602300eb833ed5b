import type { ProcessorMap } from '../worker-manager.ts';

/** Every processor the worker runs, by queue name (one file a job under processors/). */
export const processors: ProcessorMap = {};
