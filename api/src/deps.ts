import type { Runtime } from '@shop/core';

/** Everything the HTTP app needs: a process's connections (built by server.ts, or by a test with its own services). */
export type AppDeps = Omit<Runtime, 'close'>;
