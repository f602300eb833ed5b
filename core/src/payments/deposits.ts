import type { PublicClient } from 'viem';
import type { Db } from '../infra/db.ts';
import type { Tx } from '../books/ledger.ts';
import type { Address } from 'viem';
import { flushedBy, flushedEvent } from '../deposits/abi.ts';
import { factoryGave } from '../deposits/addresses.ts';
import type { OwnMoney, OwnSenders } from '../chain/trace.ts';

/**
 * The payments side of deposit addresses (core/src/deposits/, docs/decisions.md "A deposit
 * address per order"): every order has its own address, so ETH sent to it is that order's,
 * whatever the amount and whoever sent it (an exchange's wallet, a batch). Attribution is
 * by the address the ETH reached, never by tag; and what the forwarders flush on to the
 * receiving address (a sweep) is the shop's own money moving, never a payment.
 */

/** Which of `addresses` are orders' deposit addresses (the unique index on Order.depositAddress). */
export async function depositAddressesAmong(db: Db | Tx, addresses: string[]): Promise<Set<string>> {
  const wanted = [...new Set(addresses.map((a) => a.toLowerCase()))];
  if (wanted.length === 0) return new Set();
  const rows = await db.$queryRaw<{ depositAddress: string }[]>`
    SELECT "depositAddress" FROM "Order" WHERE "depositAddress" = ANY(${wanted}::text[])`;
  return new Set(rows.map((r) => r.depositAddress));
}

/**
 * Which of `addresses` `factory` (the configured one) gave their orders
 * (deposits/addresses.ts factoryGave): the shop's deposit forwarders. None without a factory.
 */
export async function factoryDepositAddressesAmong(db: Db | Tx, factory: string | null | undefined, addresses: string[]): Promise<Set<string>> {
  const wanted = [...new Set(addresses.map((a) => a.toLowerCase()))];
  if (!factory || wanted.length === 0) return new Set();
  const rows = await db.$queryRaw<{ depositAddress: string; id: string }[]>`
    SELECT "depositAddress", "id"::text AS id FROM "Order" WHERE "depositAddress" = ANY(${wanted}::text[])`;
  return new Set(rows.filter((r) => factoryGave(factory as Address, r.id, r.depositAddress)).map((r) => r.depositAddress));
}

/** Calls from the shop's deposit forwarders (a sweep flushing them) move its own money. */
export const depositSenders = (db: Db, factory: string | null | undefined): OwnSenders => (addresses) => factoryDepositAddressesAmong(db, factory, addresses);

/**
 * The shop's own money reaching the receiving address: sweeps. A node that cannot trace
 * still shows each forwarder's Flushed event, emitted by the deposit address itself (only
 * the factory's proxy can live at an address the factory gave), so a sweep is never taken
 * for an unexplained inflow.
 */
export function depositMoney(deps: { db: Db; chain: PublicClient; config: { depositFactoryAddress?: string | null } }): OwnMoney {
  const senders = depositSenders(deps.db, deps.config.depositFactoryAddress);
  return {
    senders,
    async movedIn(block) {
      const logs = await deps.chain.getLogs({ blockHash: block.hash as `0x${string}`, event: flushedEvent });
      const flushed = flushedBy(logs);
      if (flushed.size === 0) return flushed;
      const own = await senders([...flushed.keys()]);
      return new Map([...flushed].filter(([from]) => own.has(from)));
    },
  };
}

/** At most this many deposit addresses are watched at once (one eth_call reads their balances per block). */
export const MAX_WATCHED_DEPOSITS = 5_000;

/**
 * The deposit addresses the indexer watches block by block for ETH arriving through
 * contracts (a batched exchange withdrawal): those of orders whose payment window ends
 * within LATE_PAYMENT_HOURS ago or later, which holds every order still being paid (one
 * range of the partial index x_order_deposit_watch). Plain transfers reach any order's
 * address, however old, and are found by their recipient.
 */
export async function watchedDepositAddresses(db: Db, lateHours: number, now = new Date()): Promise<string[]> {
  const since = new Date(now.getTime() - lateHours * 3600_000);
  const rows = await db.$queryRaw<{ depositAddress: string }[]>`
    SELECT "depositAddress" FROM "Order"
    WHERE "depositAddress" IS NOT NULL AND "paymentDeadline" > ${since}
    ORDER BY "paymentDeadline" DESC LIMIT ${MAX_WATCHED_DEPOSITS}`;
  return rows.map((r) => r.depositAddress);
}
