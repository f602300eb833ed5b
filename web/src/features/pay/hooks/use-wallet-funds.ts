import { useQuery } from '@tanstack/react-query';
import { erc20Abi, type Address } from 'viem';
import { getBalance, getGasPrice, readContract } from 'viem/actions';
import { useConfig, useConnection } from 'wagmi';
import { getConnectorClient } from 'wagmi/actions';
import { walletFundsQueryKey } from '@/lib/query-keys';
import type { TokenQuote } from '../payment-request';

/**
 * The gas a token transfer is counted at when deciding whether the wallet can pay for one:
 * a fixed, conservative figure rather than an estimate. USDC's `transfer` uses about
 * 40,000 to 65,000 gas; 100,000 also covers the margin a wallet adds on its own fee. It
 * only decides which way the page offers first (a wrong guess costs the buyer nothing: the
 * signature may be chosen any time, and a wallet refuses a transfer it cannot pay for).
 */
export const TOKEN_TRANSFER_GAS = 100_000n;

export type WalletFunds = {
  /** The wallet cannot pay a token transfer's network fee (TOKEN_TRANSFER_GAS at the node's gas price). */
  gasShort: boolean;
  /** The wallet holds less of the token than the quote asks. */
  tokenShort: boolean;
};

type Holdings = { eth: bigint; gasPrice: bigint; token: bigint };

/** How often the funds are read again while the page is open (a buyer may top the wallet up meanwhile). */
const FUNDS_REFRESH_MS = 15_000;

/**
 * What the connected wallet holds for paying `quote`: ETH for a transfer's gas, and the
 * token. Read through the wallet itself (its node: the pay page has no node of its own,
 * and its Content-Security-Policy allows none). Undefined while it is not known (no
 * wallet connected, another chain, a wallet that does not answer reads): the page then
 * offers what it offers anyway.
 */
export function useWalletFunds(quote: TokenQuote | undefined): WalletFunds | undefined {
  const config = useConfig();
  const connection = useConnection();
  const address = connection.status === 'connected' ? connection.address : undefined;
  const onChain = quote !== undefined && connection.chainId === quote.chainId;
  const { data } = useQuery({
    queryKey: walletFundsQueryKey(address ?? '', quote?.chainId ?? 0, quote?.tokenAddress ?? ''),
    queryFn: async (): Promise<Holdings> => {
      const client = await getConnectorClient(config, { chainId: quote!.chainId as (typeof config)['chains'][number]['id'] });
      const owner = address as Address;
      const [eth, gasPrice, token] = await Promise.all([
        getBalance(client, { address: owner }),
        getGasPrice(client),
        readContract(client, { address: quote!.tokenAddress as Address, abi: erc20Abi, functionName: 'balanceOf', args: [owner] }),
      ]);
      return { eth, gasPrice, token };
    },
    enabled: address !== undefined && onChain,
    staleTime: FUNDS_REFRESH_MS,
    refetchInterval: FUNDS_REFRESH_MS,
    retry: false,
  });
  if (address === undefined || !onChain || !data) return undefined;
  return { gasShort: data.eth < TOKEN_TRANSFER_GAS * data.gasPrice, tokenShort: data.token < BigInt(quote.amount) };
}
