import { isNodeFailure } from '../chain/errors.ts';
import { isUnavailable, UserError } from '../infra/errors.ts';
import { PriceUnavailableError } from '../rails/eth/price.ts';
import { checkLines, PlaceAlone, placeOrders, placingAt, type OrderInput, type OrderRequest, type PlaceOrderDeps, type PlacedOrder, type PlacingAt } from './place-orders.ts';

/**
 * One api process's order desk: requests that arrive while a batch is being placed
 * wait and go together in the next one (group commit), so a drop of a popular package
 * takes its row lock and a commit once per batch instead of once per order. Alone, an
 * order is placed at once. The price and the head block are read once per batch. A
 * batch that fails as a whole because of its data (a fault one order meets) is placed
 * again one order at a time, so one request can never fail the others; one that fails
 * because a dependency is down (the database, Redis, the node, the price feed) fails
 * every order in it at once, as each would have failed alone.
 */
export function createOrderDesk(deps: PlaceOrderDeps, opts: { maxBatch?: number } = {}) {
  const maxBatch = opts.maxBatch ?? 100;
  type Waiting = OrderRequest & { resolve: (o: PlacedOrder) => void; reject: (err: unknown) => void };
  let waiting: Waiting[] = [];
  let running = false;
  const settle = (batch: Waiting[], results: (PlacedOrder | UserError)[]) => results.forEach((r, i) => (r instanceof Error ? batch[i]!.reject(r) : batch[i]!.resolve(r)));
  // A dependency that is down fails every order alike: answered at once, not tried one by one.
  const failsAll = (err: unknown) => err instanceof UserError || err instanceof PriceUnavailableError || isUnavailable(err) || isNodeFailure(err);
  async function placeBatch(batch: Waiting[]): Promise<void> {
    let at: PlacingAt;
    try {
      at = await placingAt(deps);
      settle(batch, await placeOrders(deps, batch, at));
    } catch (err) {
      if (batch.length === 1 || (failsAll(err) && !(err instanceof PlaceAlone))) {
        for (const w of batch) w.reject(err);
        return;
      }
      for (const w of batch) await placeOrders(deps, [w], at!).then((r) => settle([w], r), w.reject);
    }
  }
  async function drain(): Promise<void> {
    running = true;
    while (waiting.length > 0) {
      const batch = waiting.slice(0, maxBatch);
      waiting = waiting.slice(maxBatch);
      await placeBatch(batch);
    }
    running = false;
  }
  return {
    place(userId: string, input: OrderInput): Promise<PlacedOrder> {
      try {
        checkLines(input);
      } catch (err) {
        return Promise.reject(err);
      }
      return new Promise<PlacedOrder>((resolve, reject) => {
        waiting.push({ userId, input, resolve, reject });
        if (!running) void drain();
      });
    },
  };
}
export type OrderDesk = ReturnType<typeof createOrderDesk>;

