// The real worker (worker/src/main.ts: every processor and the recurring jobs) in a
// process of its own, configured by the environment the benchmark passes.
// worker/src/main.ts stops on SIGTERM (workers, then connections); it gets one when
// the benchmark goes away.
process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
await import('../../worker/src/main.ts');
process.send?.({ type: 'ready' });

export {};
