import { multicall3Abi, type Address } from 'viem';

/**
 * Multicall3 (github.com/mds1/multicall), at the address it has on Ethereum mainnet and
 * most other chains (deployed by a presigned transaction, so the same address everywhere;
 * no owner, no upgrade, no selfdestruct). The local chain and the tests place its code
 * there (scripts/lib/multicall3.ts), as the token mocks are placed at the tokens'
 * addresses. The sweeper batches the deposit factory's `recoverToken` calls through its
 * `aggregate3` (docs/decisions.md, "Sweeping tokens").
 */
export const MULTICALL3_ADDRESS: Address = '0xcA11bde05977b3631167028862bE2a173976CA11';

export { multicall3Abi };
