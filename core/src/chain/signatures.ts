import type { PublicClient } from 'viem';
import { forbidden, unavailable } from '../infra/errors.ts';
import { isNodeFailure } from './errors.ts';

/**
 * Checks that `address` signed `message` (EIP-191; a smart-contract wallet answers for it
 * through ERC-1271, ERC-6492 before deployment: viem's verifyMessage asks the node). A
 * wrong signature is a 403 naming the address; a node that did not answer says nothing
 * about the signature: a 503 to try again. Used by claims and refund wallet changes.
 */
export async function requireSignature(
  chain: PublicClient,
  input: { address: string; message: string; signature: `0x${string}`; refusal: string },
): Promise<void> {
  const valid = await chain.verifyMessage({ address: input.address as `0x${string}`, message: input.message, signature: input.signature }).catch((err: unknown) => {
    if (isNodeFailure(err)) throw unavailable('The signature could not be checked: the Ethereum node did not answer. Try again in a moment');
    return false;
  });
  if (!valid) throw forbidden(input.refusal);
}
