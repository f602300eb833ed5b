import type { Address, Hash } from 'viem';
import { Prisma } from '../infra/db.ts';
import { tokenBySymbol, type TokenSymbol } from '../contract/tokens.ts';
import { factoryDepositAddressesAmong } from '../payments/deposits.ts';
import { transferEvent } from '../rails/erc20/abi.ts';
import { transferLogOf } from '../rails/erc20/logs.ts';
import { someOf } from './sweeper-adopt.ts';
import { recordFound, windowedLogs, type SweepDeps } from './sweeper-found.ts';
import { markTokenPayments, tokenTransfersToReceiving } from './token-sweep-marks.ts';
import type { TokenHolding } from './token-sweeps.ts';

/**
 * Token recoveries someone else sent (docs/decisions.md, "Sweeping tokens"): the factory's
 * recoverToken(salt, token) is open to anyone, and moves the address's whole balance of the
 * token to the receiving address. The money is safe, but the books would hold those payments
 * at the deposit address for good (the sweeper finds nothing to sweep, the reconciler names
 * the address every run). As for ETH (sweeper-adopt.ts), a candidate holding less of its
 * token than its unswept payments is looked into: the token's own Transfer logs from the
 * address to the receiving address, from its oldest unswept payment's block on, say which
 * transactions moved it. Each one not recorded is recorded as a token sweep (SENT, kind
 * TOKENS, an item for each of the shop's deposit addresses and accepted tokens its receipt's
 * Transfer logs show moving to the receiving address), followed and confirmed by the rule of
 * the shop's own token sweeps (token-sweep-marks.ts), and reopened by a reorganization like
 * any sweep (sweep-reorgs.ts). With none unknown, payments recorded after the last one, a
 * confirmed token sweep, and mined before its Transfer are marked swept by it.
 */
export type TokenShort = TokenHolding & { fromBlock: bigint | null };

/** Looks into the holdings short of their token; returns the `address|asset` now in a sweep found on chain. */
export async function adoptTokenRecoveries(deps: SweepDeps, holdings: TokenShort[]): Promise<Set<string>> {
  const adopted = new Set<string>();
  for (const h of someOf(holdings.filter((x) => x.balance < x.recorded))) {
    try {
      if (await adoptOne(deps, h)) adopted.add(`${h.address.toLowerCase()}|${h.asset}`);
    } catch (err) {
      // A node that limits eth_getLogs, say: the reconciler reports the address meanwhile.
      deps.logger.warn({ msg: 'could not look for the token recovery that emptied a deposit address', deposit_address: h.address, asset: h.asset, err });
    }
  }
  return adopted;
}

async function adoptOne(deps: SweepDeps, h: TokenShort): Promise<boolean> {
  const token = tokenBySymbol(h.asset).address;
  const receiving = deps.config.receivingAddress as Address;
  const raw = await windowedLogs(deps.chain, h.fromBlock ?? 0n, 'latest', (fromBlock, toBlock) =>
    deps.chain.getLogs({ address: token, event: transferEvent, args: { from: h.address, to: receiving }, fromBlock, toBlock }),
  );
  // The node's filter is not trusted: the pinned token's own log, from this address, to the receiving address.
  const moves = raw.flatMap((l) => {
    const t = transferLogOf(token, l);
    return t && t.from === h.address.toLowerCase() && t.to === receiving.toLowerCase() && t.amount > 0n ? [t] : [];
  });
  const hashes = [...new Set(moves.map((t) => t.txHash))];
  const last = hashes.at(-1);
  if (!last) {
    deps.logger.warn({ msg: 'a deposit address holds less of a token than its unswept token payments, and no Transfer of it to the receiving address was found', deposit_address: h.address, asset: h.asset, recorded: h.recorded.toString(), balance: h.balance.toString() });
    return false;
  }
  const known = new Set((await deps.db.depositSweep.findMany({ where: { txHash: { in: hashes } }, select: { txHash: true } })).map((s) => s.txHash.toLowerCase()));
  let adopted = false;
  for (const hash of hashes) if (!known.has(hash)) adopted = (await recordFoundTokenSweep(deps, hash)) || adopted;
  if (adopted || known.size < hashes.length) return adopted;
  const sweep = await deps.db.depositSweep.findUnique({ where: { txHash: last }, include: { items: { where: { address: h.address.toLowerCase(), asset: h.asset } } } });
  const logIndex = Math.min(...moves.filter((t) => t.txHash === last).map((t) => t.logIndex));
  if (sweep?.kind === 'TOKENS' && sweep.status === 'CONFIRMED' && sweep.blockNumber !== null && sweep.items[0]?.sweptAmount?.gt(0)) {
    const marked = await markTokenPayments(deps.db, sweep.id, h.address, h.asset, { blockNumber: sweep.blockNumber, logIndex });
    if (marked > 0) deps.logger.info({ msg: 'token payments recorded after their sweep was confirmed are marked swept by it', sweep_id: sweep.id, deposit_address: h.address, asset: h.asset, payments: marked });
  }
  return false;
}

/**
 * Records a transaction whose receipt shows accepted tokens moving from the shop's deposit
 * addresses to the receiving address as a token sweep to follow (SENT). False: nothing of
 * the shop's, or already recorded.
 */
export async function recordFoundTokenSweep(deps: SweepDeps, hash: Hash): Promise<boolean> {
  const [tx, receipt] = await Promise.all([deps.chain.getTransaction({ hash }), deps.chain.getTransactionReceipt({ hash })]);
  const assets = deps.config.acceptedAssets.filter((a): a is TokenSymbol => a !== 'ETH');
  const moved = [...tokenTransfersToReceiving(receipt.logs, assets, deps.config.receivingAddress).values()].filter((m) => m.amount > 0n);
  const ours = await factoryDepositAddressesAmong(deps.db, deps.config.depositFactoryAddress, moved.map((m) => m.address));
  const items = moved
    .filter((m) => ours.has(m.address))
    .sort((a, b) => (a.address === b.address ? a.asset.localeCompare(b.asset) : a.address.localeCompare(b.address)))
    .map((m) => ({ address: m.address, asset: m.asset, expectedWei: new Prisma.Decimal(0), expectedAmount: new Prisma.Decimal(m.amount.toString()) }));
  if (items.length === 0) return false;
  return recordFound(deps, tx, { kind: 'TOKENS', items });
}
