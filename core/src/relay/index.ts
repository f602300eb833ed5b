// Paying a token with one signature (EIP-3009): the buyer's authorization checked
// (accept.ts), then sent from the relay wallet and followed to its end (relay.ts).
export { acceptAuthorization, relayOffReason, signableAssets, signableToken } from './accept.ts';
export { relayAuthorization, relayWallet, type RelayStep } from './relay.ts';
export { latestAuthorization, relayGasSince, relaysOnTheirWay } from './reads.ts';
