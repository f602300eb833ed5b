import { createPublicClient, webSocket } from 'viem';
import { mainnet } from 'viem/chains';
import { jobs, publishHead, takeDue, withoutNodeUrl, type Logger, type Runtime } from '@shop/core';

/**
 * Follows the chain's head for the whole worker: by subscription (eth_subscribe
 * newHeads) when ETH_WS_URL names the node's WebSocket endpoint, otherwise by asking
 * for the block number every BLOCK_POLL_MS (with a subscription, every 15 s still, as a
 * keep-alive). For each head it
 * - shares it through Redis (chain/head.ts), where the api reads it to place orders;
 * - on a new block, queues an index run at once (one per block, whichever worker adds
 *   it) and wakes the payment checks waiting for that block (their confirmations);
 * and it keeps the shared ETH price fresh, so no buyer's request reads the feed.
 * Several workers may each run one: every step is idempotent.
 */
const KEEP_ALIVE_MS = 15_000;

export function startBlockWatcher(runtime: Runtime, logger: Logger): { close(): Promise<void> } {
  const { config, chain, queues } = runtime;
  const log = logger.child({ component: 'block-watcher' });
  let last: bigint | null = null;
  let stopped = false;
  let failing = false;

  const wakeDue = async (head: bigint) => {
    const due = await takeDue(runtime, head);
    await Promise.all(
      due.map(async (id) => {
        const job = await queues['payment-verify'].getJob(id);
        // Not delayed any more (it ran on its timer meanwhile): nothing to wake.
        await job?.promote().catch(() => {});
      }),
    );
  };
  const onHead = async (head: bigint) => {
    await publishHead(runtime, head);
    if (last !== null && head <= last) return;
    last = head;
    // A step that fails is done at the next block (the waiting jobs stay registered).
    const steps = await Promise.allSettled([jobs.indexAt(queues, head), wakeDue(head)]);
    for (const step of steps) if (step.status === 'rejected') throw step.reason;
  };
  const report = (err: unknown) => {
    if (!failing) log.warn({ msg: 'block watcher: the node or Redis failed; trying again', err });
    failing = true;
  };
  const handle = (head: bigint) =>
    onHead(head).then(
      () => {
        if (failing) log.info({ msg: 'block watcher: following the chain again', head: head.toString() });
        failing = false;
      },
      report,
    );

  let unwatch: (() => void) | undefined;
  let closeSocket = async () => {};
  let pollEvery = config.blockPollMs;
  if (config.ethWsUrl) {
    pollEvery = Math.max(config.blockPollMs, KEEP_ALIVE_MS);
    const ws = createPublicClient({ chain: mainnet, transport: withoutNodeUrl(webSocket(config.ethWsUrl, { keepAlive: true, reconnect: true }), config.ethWsUrl) });
    closeSocket = async () => (await ws.transport.getRpcClient()).close();
    // Subscribed only to a node on the shop's chain: a head from another chain would be shared with the api.
    ws.getChainId().then(
      (id) => {
        if (stopped) return;
        if (id !== config.chainId) {
          log.error({ msg: `ETH_WS_URL serves chain id ${id}, not ${config.chainId}: not subscribing; polling ETH_RPC_URL instead` });
          pollEvery = config.blockPollMs;
          return;
        }
        unwatch = ws.watchBlockNumber({ emitOnBegin: true, onBlockNumber: (n) => void handle(n), onError: report });
      },
      (err: unknown) => {
        log.error({ msg: 'could not reach ETH_WS_URL: polling ETH_RPC_URL instead', err });
        pollEvery = config.blockPollMs;
      },
    );
  }
  const priceEvery = Math.max(250, (config.priceCacheSeconds * 1000) / 4);
  let timer: NodeJS.Timeout | undefined;
  let lastPoll = 0;
  let priceFailing = false;
  let running: Promise<void> = Promise.resolve();
  const tick = async () => {
    if (Date.now() - lastPoll >= pollEvery) {
      lastPoll = Date.now();
      await chain.getBlockNumber({ cacheTime: 0 }).then(handle, report);
    }
    await runtime.prices.keepFresh().then(
      () => {
        if (priceFailing) log.info({ msg: 'block watcher: the ETH price is read again' });
        priceFailing = false;
      },
      (err: unknown) => {
        // Said once: the api answers 503 meanwhile and says why.
        if (!priceFailing) log.warn({ msg: 'block watcher: could not refresh the ETH price', err });
        priceFailing = true;
      },
    );
  };
  const loop = () => {
    if (stopped) return;
    running = tick().finally(() => {
      if (!stopped) timer = setTimeout(loop, Math.min(pollEvery, priceEvery));
    });
  };
  loop();
  log.info({ msg: 'block watcher started', subscription: Boolean(config.ethWsUrl), poll_ms: pollEvery });
  return {
    async close() {
      stopped = true;
      clearTimeout(timer);
      unwatch?.();
      await closeSocket().catch(() => {});
      await running;
    },
  };
}
