import { useState } from 'react';
import { useSignMessage } from 'wagmi';
import type { PayWallet } from './use-pay-wallet';
import { signatureError } from '../wallet-messages';

/**
 * Signs a message (EIP-191 personal_sign) with the pay page's wallet, for the forms that
 * prove who sent some ETH: claiming a transfer, sending a refund to another wallet. It
 * connects the wallet first when none is; a failure is kept in `error` for the form's alert
 * ('Signature Error: …' when the wallet refused to sign).
 */
export function useWalletSignature(wallet: Pick<PayWallet, 'ensureConnected' | 'isConnecting'>) {
  const sign = useSignMessage();
  const [error, setError] = useState<string>();

  /** Resolves to the signature, or undefined when there is none (see `error`). */
  const signMessage = async (message: string): Promise<`0x${string}` | undefined> => {
    setError(undefined);
    const notConnected = await wallet.ensureConnected();
    if (notConnected) {
      setError(notConnected);
      return undefined;
    }
    try {
      return await sign.signMessageAsync({ message });
    } catch (e) {
      setError(signatureError(e));
      return undefined;
    }
  };

  return {
    signMessage,
    error,
    isPending: wallet.isConnecting || sign.isPending,
    reset: () => setError(undefined),
  };
}
