// The real api (api/src/server.ts: createApp over its runtime) in a process of its own,
// configured by the environment the benchmark passes. Reports its URL over IPC.
import { startServer } from '../../api/src/server.ts';

const { url, close } = await startServer();
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  const hard = setTimeout(() => process.exit(1), 10_000);
  hard.unref();
  close().then(() => process.exit(0), () => process.exit(1));
};
// The benchmark went away (or asked us to stop): so do we.
process.once('disconnect', stop);
process.once('SIGTERM', stop);
process.send?.({ type: 'listening', url });
