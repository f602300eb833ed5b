import { CircleAlert, Wallet } from 'lucide-react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useShopNetwork } from '@/api/get-shop-config';
import { DEV_WALLET_ENABLED } from '@/lib/wagmi-dev-wallet';
import type { PayWallet } from '../hooks/use-pay-wallet';
import { switchNetwork } from '../wallet-messages';
import { t } from '@/i18n/i18n';

/**
 * The one message of a failed connect or payment (SPEC.md's texts), drawn beside the Pay
 * button. Nothing shows before the buyer acts: a desktop without a wallet is offered the
 * phone first, and learns 'Please,Install MetaMask!' when it tries to connect.
 */
export function WalletError({ wallet }: { wallet: PayWallet }) {
  return wallet.error ? <WalletMessage message={wallet.error} /> : null;
}

/** A wallet's failure in SPEC.md's words, as they are ('Please,Install MetaMask!'), under the form that asked the wallet. */
export function WalletMessage({ message }: { message: string }) {
  return (
    <Alert variant="destructive" className="w-full">
      <CircleAlert aria-hidden="true" />
      <AlertDescription>{message}</AlertDescription>
    </Alert>
  );
}

/** Connect to MetaMask (or the dev wallet), the connected address and the network switch. */
export function WalletSection({ wallet }: { wallet: PayWallet }) {
  // anvil's published account pays only on a development chain (GET /api/config), never on a real network.
  const developmentChain = useShopNetwork()?.developmentChain === true;
  return (
    <div className="flex flex-col gap-3">
      {wallet.isConnected && wallet.address ? (
        <div className="flex flex-wrap items-center justify-between gap-2 rounded-lg border bg-muted/40 px-3 py-2 text-sm">
          <span className="flex min-w-0 items-center gap-2">
            <Wallet aria-hidden="true" className="size-4 shrink-0" />
            <span className="break-all font-mono">{t('pay.walletSection.connected', { address: wallet.address })}</span>
          </span>
          <Button variant="ghost" size="sm" onClick={wallet.disconnect}>
            {t('pay.walletSection.disconnect')}
          </Button>
        </div>
      ) : (
        <div className="flex flex-col gap-2 sm:flex-row">
          <Button variant="outline" className="flex-1" onClick={() => void wallet.connectMetaMask()} disabled={wallet.isConnecting}>
            {wallet.isConnecting ? <Spinner size="sm" aria-hidden="true" className="text-current" /> : null}
            {t('pay.walletSection.connect')}
          </Button>
          {/* The constant folds to false in a production build, and the button goes with it. */}
          {DEV_WALLET_ENABLED && developmentChain && wallet.connectDevWallet ? (
            <Button variant="secondary" className="flex-1" onClick={wallet.connectDevWallet} disabled={wallet.isConnecting}>
              {t('pay.walletSection.devWallet')}
            </Button>
          ) : null}
        </div>
      )}

      {wallet.wrongNetwork ? (
        <Alert variant="destructive">
          <CircleAlert aria-hidden="true" />
          <AlertDescription>
            <p>{switchNetwork()}</p>
            <Button size="sm" variant="outline" onClick={wallet.switchToMainnet} disabled={wallet.isSwitching}>
              {wallet.isSwitching ? <Spinner size="sm" aria-hidden="true" className="text-current" /> : null}
              {t('pay.walletSection.switch')}
            </Button>
          </AlertDescription>
        </Alert>
      ) : null}
    </div>
  );
}
