import { useEffect, useState } from 'react';
import { toast } from '@/lib/toast';
import { erc20Abi, type Address } from 'viem';
import { useConnect, useConnection, useConnectors, useDisconnect, useSendTransaction, useSignTypedData, useSwitchChain, useWriteContract } from 'wagmi';
import { transferAuthorizationTypedData, type QuoteJson, type TransferAuthorization } from '@shop/core/contract';
import { useShopNetwork } from '@/api/get-shop-config';
import { t } from '@/i18n/i18n';
import { findWalletConnector, hasBrowserWallet, requiredChainId, SHOP_CHAINS, type ShopChainId } from '@/lib/wagmi';
import { DEV_WALLET_ENABLED, DEV_WALLET_ID } from '@/lib/wagmi-dev-wallet';
import { transferAuthorization, type SignableQuote, type TokenQuote } from '../payment-request';
import {
  connectionError,
  connectMetaMask as connectMetaMaskMessage,
  installMetaMask,
  isChainMismatch,
  isUserRejection,
  metaMaskConnected,
  paymentError,
  signatureDeclined,
  signatureError,
  switchNetwork,
  unknownQuoteChain,
  walletErrorMessage,
} from '../wallet-messages';

/**
 * The wallet side of the pay page: connect (MetaMask, or the dev wallet in development),
 * switch to mainnet and send the quoted amount (ETH, or a token's `transfer`), or sign a
 * USDC authorization the shop sends (EIP-3009). Failures
 * become the SPEC.md texts, kept in `error` for the one alert beside the Pay button: one
 * message per failure, no toast on top of it.
 */
/** One toast for a connected wallet: a second connection replaces it, and it leaves with the page. */
const WALLET_CONNECTED_TOAST = 'wallet-connected';

export function usePayWallet() {
  const connection = useConnection();
  const connectors = useConnectors();
  const connect = useConnect();
  const disconnect = useDisconnect();
  const switchChain = useSwitchChain();
  const sendTransaction = useSendTransaction();
  const writeContract = useWriteContract();
  const signTypedData = useSignTypedData();
  const [error, setError] = useState<string>();
  // 'Success Pay' follows within seconds on a fast chain: the connection's news is not
  // carried onto it, over the hash the buyer came to read.
  useEffect(() => () => void toast.dismiss(WALLET_CONNECTED_TOAST), []);

  const fail = (message: string) => setError(message);

  // The shop's own chain (GET /api/config): mainnet, or a staging shop's test network.
  const chainId = requiredChainId(useShopNetwork()?.chainId);
  const isConnected = connection.status === 'connected';
  const wrongNetwork = (isConnected && connection.chainId !== chainId) || error === switchNetwork();

  /**
   * Connects MetaMask (or another browser wallet) unless one is connected already.
   * Resolves to undefined once a wallet is connected, otherwise to why not, for the form
   * that asked to show: the alert beside the Pay button is cleared, so the message is on
   * the page once, where the buyer acted.
   */
  const ensureConnected = async (): Promise<string | undefined> => {
    if (isConnected) return undefined;
    setError(undefined);
    const connector = await findWalletConnector(connectors);
    if (!connector) return installMetaMask();
    try {
      await connect.mutateAsync({ connector });
    } catch (e) {
      return connectionError(e);
    }
    toast.success(metaMaskConnected(), { id: WALLET_CONNECTED_TOAST });
    return undefined;
  };

  /** 'Connect to MetaMask': why it failed is the alert beside the Pay button. */
  const connectMetaMask = async () => {
    const failed = await ensureConnected();
    if (failed) fail(failed);
  };

  const devConnector = DEV_WALLET_ENABLED ? connectors.find((c) => c.id === DEV_WALLET_ID) : undefined;
  const connectDevWallet = devConnector
    ? () => {
        setError(undefined);
        connect.mutate(
          { connector: devConnector },
          {
            onSuccess: () => toast.success(t('pay.wallet.devConnected'), { id: WALLET_CONNECTED_TOAST }),
            onError: (e) => fail(connectionError(e)),
          },
        );
      }
    : undefined;

  const switchToMainnet = () => {
    switchChain.mutate(
      { chainId },
      {
        onSuccess: () => setError(undefined),
        onError: (e) => setError(walletErrorMessage(e)),
      },
    );
  };

  /**
   * Sends what a quote asks on the quote's own chain (the server's, never a default while
   * the shop's config loads), once a wallet is connected on it; resolves to what the
   * wallet gave (the transaction hash, a signature), or undefined on failure (the message
   * is `error`, in `failure`'s words when the wallet refused).
   */
  const send = async <T>(
    chainId: number,
    submit: (chainId: ShopChainId, from: Address) => Promise<T>,
    failure = paymentError,
  ): Promise<T | undefined> => {
    setError(undefined);
    if (!isConnected || !connection.address) {
      fail(connectMetaMaskMessage());
      return undefined;
    }
    const quoteChainId = SHOP_CHAINS.find((c) => c.id === chainId)?.id;
    if (quoteChainId === undefined) {
      fail(unknownQuoteChain());
      return undefined;
    }
    if (connection.chainId !== quoteChainId) {
      fail(switchNetwork());
      return undefined;
    }
    try {
      return await submit(quoteChainId, connection.address);
    } catch (e) {
      fail(isChainMismatch(e) ? switchNetwork() : failure(e));
      return undefined;
    }
  };

  /** ETH: exactly the quoted wei (its last digits are the order's tag) to the receiving address. */
  const pay = (quote: QuoteJson) =>
    send(quote.chainId, (chainId) =>
      sendTransaction.mutateAsync({ to: quote.receivingAddress as Address, value: BigInt(quote.amountWei), chainId }),
    );

  /** A token: its ERC-20 `transfer` of the quoted amount to the order's deposit address (`payTo`). */
  const payToken = (quote: TokenQuote) =>
    send(quote.chainId, (chainId) =>
      writeContract.mutateAsync({
        address: quote.tokenAddress as Address,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [quote.payTo as Address, BigInt(quote.amount)],
        chainId,
      }),
    );

  /**
   * USDC by one signature (EIP-3009): the wallet signs the authorization of the quote's
   * amount to the order's deposit address (eth_signTypedData_v4), no transaction; resolves
   * to the message and its signature for the shop to send, or undefined (see `error`). A
   * fresh nonce each time: a declined or refused one is simply signed again.
   */
  const signTransfer = (quote: SignableQuote) =>
    send(
      quote.chainId,
      async (_chainId, from): Promise<{ auth: TransferAuthorization; signature: `0x${string}` }> => {
        const auth = transferAuthorization(quote, from);
        const signature = await signTypedData.mutateAsync({ account: from, ...transferAuthorizationTypedData(quote.signedTransfer.domain, auth) });
        return { auth, signature };
      },
      (e) => (isUserRejection(e) ? signatureDeclined() : signatureError(e)),
    );

  return {
    address: isConnected ? connection.address : undefined,
    isConnected,
    /** False when the page has no browser wallet at all (no window.ethereum, no EIP-6963). */
    hasWallet: hasBrowserWallet(connectors),
    wrongNetwork,
    error: error === switchNetwork() ? undefined : error,
    isConnecting: connect.isPending,
    isSwitching: switchChain.isPending,
    isSending: sendTransaction.isPending || writeContract.isPending,
    isSigning: signTypedData.isPending,
    connectMetaMask,
    ensureConnected,
    connectDevWallet,
    disconnect: () => {
      setError(undefined);
      disconnect.mutate({});
    },
    switchToMainnet,
    pay,
    payToken,
    signTransfer,
  };
}

export type PayWallet = ReturnType<typeof usePayWallet>;
