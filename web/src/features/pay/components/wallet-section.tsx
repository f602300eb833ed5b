import { CircleAlert, Wallet } from 'lucide-react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { DEV_WALLET_ENABLED } from '@/lib/wagmi-dev-wallet';
import type { PayWallet } from '../hooks/use-pay-wallet';
import { INSTALL_METAMASK, SWITCH_NETWORK } from '../wallet-messages';

type WalletSectionProps = {
  wallet: PayWallet;
  /** Phones get the 'Open MetaMask' notice instead of the install message. */
  isMobile: boolean;
};

/** Connect to MetaMask (or the dev wallet), the connected address and wallet errors. */
export function WalletSection({ wallet, isMobile }: WalletSectionProps) {
  const showInstall = !wallet.hasWallet && !wallet.isConnected && !isMobile;
  const error = wallet.error === INSTALL_METAMASK && showInstall ? undefined : wallet.error;

  return (
    <div className="flex flex-col gap-3">
      {wallet.isConnected && wallet.address ? (
        <div className="flex flex-wrap items-center justify-between gap-2 rounded-lg border bg-muted/40 px-3 py-2 text-sm">
          <span className="flex min-w-0 items-center gap-2">
            <Wallet aria-hidden="true" className="size-4 shrink-0" />
            <span className="break-all font-mono">Connected: {wallet.address}</span>
          </span>
          <Button variant="ghost" size="sm" onClick={wallet.disconnect}>
            Disconnect
          </Button>
        </div>
      ) : (
        <div className="flex flex-col gap-2 sm:flex-row">
          <Button variant="outline" className="flex-1" onClick={() => void wallet.connectMetaMask()} disabled={wallet.isConnecting}>
            {wallet.isConnecting ? <Spinner size="sm" aria-hidden="true" className="text-current" /> : null}
            Connect to MetaMask
          </Button>
          {/* The constant folds to false in a production build, and the button goes with it. */}
          {DEV_WALLET_ENABLED && wallet.connectDevWallet ? (
            <Button variant="secondary" className="flex-1" onClick={wallet.connectDevWallet} disabled={wallet.isConnecting}>
              Use dev wallet (anvil)
            </Button>
          ) : null}
        </div>
      )}

      {showInstall ? (
        <Alert variant="destructive">
          <CircleAlert aria-hidden="true" />
          <AlertDescription>{INSTALL_METAMASK}</AlertDescription>
        </Alert>
      ) : null}

      {wallet.wrongNetwork ? (
        <Alert variant="destructive">
          <CircleAlert aria-hidden="true" />
          <AlertDescription>
            <p>{SWITCH_NETWORK}</p>
            <Button size="sm" variant="outline" onClick={wallet.switchToMainnet} disabled={wallet.isSwitching}>
              {wallet.isSwitching ? <Spinner size="sm" aria-hidden="true" className="text-current" /> : null}
              Switch to Ethereum Mainnet
            </Button>
          </AlertDescription>
        </Alert>
      ) : null}

      {error ? (
        <Alert variant="destructive">
          <CircleAlert aria-hidden="true" />
          <AlertDescription>{error}</AlertDescription>
        </Alert>
      ) : null}
    </div>
  );
}
