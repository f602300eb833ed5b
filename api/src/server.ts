import { getConfig, createRuntime } from '@shop/core';
import type { Server } from 'node:http';
import { createApp } from './app.ts';

const FACTORY_CHECK_WAIT_MS = 10_000;

/** Starts the HTTP listener; shuts down in order (HTTP -> queues -> Redis -> Prisma). */
export async function startServer(): Promise<{ server: Server; url: string; close(): Promise<void> }> {
  const config = getConfig();
  const runtime = createRuntime(config, 'api');
  // The deposit factory's code is checked before the first order, if the node answers within
  // FACTORY_CHECK_WAIT_MS; until a check passes, orders are placed without a deposit address.
  await runtime.depositFactory.start({ waitMs: FACTORY_CHECK_WAIT_MS });
  const app = createApp(runtime);
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.port, config.host, () => resolve(s));
    s.once('error', reject);
  });
  server.keepAliveTimeout = 65_000;
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  const url = `http://${config.host}:${port}`;
  runtime.logger.info({ url }, 'api listening');
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await runtime.close();
    })());
  return { server, url, close };
}

const isMain = import.meta.url === `file://${process.argv[1]}`;
if (isMain) {
  const { close } = await startServer();
  const shutdown = (signal: string) => {
    const hard = setTimeout(() => {
      console.error(`api: shutdown after ${signal} took too long; exiting`);
      process.exit(1);
    }, 10_000);
    hard.unref();
    close().then(() => process.exit(0), () => process.exit(1));
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}
