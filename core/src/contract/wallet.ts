// What a wallet signs and the address format the api takes. No zod here: the pay page
// imports these, and a module with schemas would bring zod into its chunk.

/** An Ethereum address (0x and 40 hex characters). */
export const ETH_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** An Ethereum address as the api takes it (surrounding spaces allowed). */
export function isEthAddress(value: string): boolean {
  return ETH_ADDRESS.test(value.trim());
}

/**
 * The message a buyer signs with the address that sent the transfer (EIP-191; a
 * smart-contract wallet answers for it through ERC-1271). Naming the order and the
 * transaction, it cannot be reused for another claim.
 */
export function claimMessage(orderId: string, txHash: string): string {
  return `ETH Shop payment claim\nI sent transaction ${txHash.toLowerCase()} and claim it for my order ${orderId.toLowerCase()}.`;
}

/** The message the sender signs (EIP-191, or ERC-1271 for a contract wallet) to send a refund elsewhere. */
export function refundWalletMessage(refundId: string, wallet: string): string {
  return `ETH Shop refund\nSend refund ${refundId.toLowerCase()} to ${wallet.toLowerCase()}.`;
}
