import { voidPayoutApprovals } from '../approvals/index.ts';
import { payoutWallet } from '../books/balances.ts';
import { requireSignature } from '../chain/signatures.ts';
import { confirmationsAt } from '../chain/transfer-reader.ts';
import { refundWalletMessage } from '../contract/wallet.ts';
import { conflict, notFound } from '../infra/errors.ts';
import { refundTransfer } from '../payments/transfer-states.ts';
import { openFindingNames } from '../reconcile/reconcile.ts';
import { depositBooksDisagree } from '../reconcile/deposit-checks.ts';
import type { Deps } from './types.ts';
import { refuseBlockedWallet, screeningRefunds } from './issuer-blocklist.ts';

/**
 * An admin refunds a transfer no order took (UNRESOLVED, LATE, or ETH no transaction
 * explains): to its sender unless a wallet is named. An inflow is recorded as soon as its
 * block is indexed: it can be refunded once the block has its confirmations, and, at a
 * deposit address, while the reconciler's latest run names no finding on that address.
 */
export async function refundPayment(
  deps: Pick<Deps, 'db' | 'chain' | 'config'>,
  input: { paymentId: string; actorId: string; wallet?: string },
  afterCreate?: Parameters<typeof refundTransfer>[2],
): Promise<{ refundId: string }> {
  const { db, chain, config } = deps;
  const payment = await db.payment.findUnique({ where: { id: input.paymentId }, select: { source: true, blockNumber: true, depositAddress: true } });
  if (payment?.source === 'INFLOW' && payment.blockNumber !== null) {
    const confirmations = confirmationsAt(await chain.getBlockNumber({ cacheTime: 0 }), payment.blockNumber);
    if (confirmations < config.paymentConfirmations) {
      throw conflict(`Its block has ${confirmations} of ${config.paymentConfirmations} confirmations: refund it once the block is final`);
    }
  }
  // ETH at a deposit address the books disagree about may be a deposit counted already (or
  // moved by a sweep): refunded, the same ETH would be both. ETH there that nobody recorded
  // (a surplus) cannot be, and anyone can put 1 wei there: it holds nothing up.
  if (payment?.source === 'INFLOW' && payment.depositAddress && (await openFindingNames(db, { address: payment.depositAddress }, ['deposit-unrecorded']))) {
    throw conflict("The reconciler's latest run names this deposit address: refund it once a run finds the books there agree");
  }
  // And the books there now, read as the reconciler reads them (fails closed: halted, behind, a sweep on its way).
  if (payment?.source === 'INFLOW' && payment.depositAddress) {
    const disagree = await depositBooksDisagree(deps, payment.depositAddress, payment.blockNumber);
    if (disagree) throw conflict(`The books of this deposit address cannot be shown to agree now: ${disagree}. Refund it once they do`);
  }
  const wallet = input.wallet ? await payoutWallet(db, config, input.wallet) : undefined;
  const outcome = await refundTransfer(db, { paymentId: input.paymentId, wallet, actorId: input.actorId }, screeningRefunds(chain, afterCreate));
  if (outcome === 'missing') throw notFound('Payment not found');
  if (outcome === 'explained') throw conflict('This ETH turned out to be a transfer through a contract, found by tracing its block: see that transfer');
  if (outcome === 'not-refundable') throw conflict('Only unresolved or late transfers can be refunded');
  if (outcome === 'no-sender') throw conflict('No transaction shows who sent this ETH: name the wallet to refund');
  if (outcome === 'no-single-payer') throw conflict('No single address sent this ETH: name the wallet to refund');
  return outcome;
}

/**
 * The address that sent the refunded ETH names another wallet for its refund, with a
 * signature (EIP-191, or ERC-1271 for a contract wallet) over refundWalletMessage. Only
 * while the refund is unpaid and no payout is being checked for it.
 */
export async function changeRefundWallet(
  deps: Pick<Deps, 'db' | 'chain' | 'config'>,
  input: { refundId: string; wallet: string; signature: `0x${string}` },
): Promise<void> {
  const { db, chain, config } = deps;
  const refund = await db.refund.findUnique({ where: { id: input.refundId } });
  if (!refund) throw notFound('Refund not found');
  const payment = refund.paymentId ? await db.payment.findUnique({ where: { id: refund.paymentId }, select: { payerAddress: true } }) : null;
  const signer = payment?.payerAddress;
  if (!signer) throw conflict('No address sent this ETH that could sign for its refund');
  const wallet = await payoutWallet(db, config, input.wallet);
  await requireSignature(chain, {
    address: signer,
    message: refundWalletMessage(refund.id, wallet),
    signature: input.signature,
    refusal: `The signature is not from the address that sent this ETH (${signer})`,
  });
  // Read before the change is written: a payout mined in this block or before was sent to
  // the wallet as it was; one mined later counts for the new wallet only.
  const head = await chain.getBlockNumber({ cacheTime: 0 });
  await db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT "id" FROM "Refund" WHERE "id" = ${refund.id}::uuid FOR UPDATE`;
    // Once a payout was given for it (even one refused, that may have delivered), the
    // wallet stays: the ETH may be on its way there already.
    if (await tx.payoutCheck.count({ where: { refundId: refund.id, OR: [{ status: { in: ['CHECKING', 'ACCEPTED'] } }, { deliveredAmount: { gt: 0 } }, { holds: true }] } })) {
      throw conflict('This refund is being paid: its wallet can no longer change');
    }
    const current = await tx.refund.findUniqueOrThrow({ where: { id: refund.id } });
    if (current.status !== 'REQUESTED') throw conflict('This refund was paid already');
    if (current.wallet.toLowerCase() === wallet.toLowerCase()) return;
    await refuseBlockedWallet(chain, current.asset, wallet);
    // A payout the admin sent to the former wallet before it changed (mined by `head`) still pays it.
    await tx.refund.update({
      where: { id: refund.id },
      data: { wallet, walletSource: 'claim', formerWallets: { push: current.wallet }, formerWalletsUntilBlock: { push: head } },
    });
    // An approval was for the former wallet: a large refund is asked for again.
    await voidPayoutApprovals(tx, refund.id);
  });
}

