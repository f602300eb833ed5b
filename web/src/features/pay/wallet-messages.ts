import { t } from '@/i18n/i18n';
import { getErrorMessage } from '@/lib/api-client';

// SPEC.md section 8: the pay page's texts (in English exactly), in the active language:
// functions, so each is read in the language drawn at the time.
export const installMetaMask = () => t('pay.wallet.installMetaMask');
export const connectMetaMask = () => t('pay.wallet.connectMetaMask');
export const switchNetwork = () => t('pay.wallet.switchNetwork');
export const metaMaskConnected = () => t('pay.wallet.connected');
/** A quote on a chain this page's wallet setup does not know: the payment request (link or QR code) still works. */
export const unknownQuoteChain = () => t('pay.wallet.unknownQuoteChain');

/** The buyer said no to the signature in the wallet: nothing happened, and the button is there to sign again. */
export const signatureDeclined = () => t('pay.wallet.signatureDeclined');
/** A transfer pays its network fee in ETH; a wallet without enough is offered the signature, whose fee the shop pays. */
export const noGasForTransfer = () => t('pay.wallet.noGasForTransfer');

/** 'Connection Error: …', 'Payment Error: …', 'Signature Error: …' (SPEC.md's forms) with the wallet's own message. */
export const connectionError = (e: unknown) => t('pay.wallet.connectionError', { message: walletErrorMessage(e) });
export const paymentError = (e: unknown) => t('pay.wallet.paymentError', { message: walletErrorMessage(e) });
export const signatureError = (e: unknown) => t('pay.wallet.signatureError', { message: walletErrorMessage(e) });

/** viem and wagmi errors carry a one-line `shortMessage`; their `message` adds pages of detail. */
export function walletErrorMessage(error: unknown): string {
  if (error && typeof error === 'object' && 'shortMessage' in error) {
    const { shortMessage } = error as { shortMessage: unknown };
    if (typeof shortMessage === 'string' && shortMessage !== '') return shortMessage;
  }
  return getErrorMessage(error);
}

/** True for viem's ChainMismatchError anywhere in the cause chain. */
export function isChainMismatch(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 10; depth++) {
    if ((e as { name?: unknown }).name === 'ChainMismatchError') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** True when the wallet's user refused the request (EIP-1193 code 4001, viem's UserRejectedRequestError) anywhere in the cause chain. */
export function isUserRejection(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 10; depth++) {
    const { code, name } = e as { code?: unknown; name?: unknown };
    if (code === 4001 || name === 'UserRejectedRequestError') return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** SPEC.md section 9: mobile means android or iOS (iPadOS reports itself as a Mac with touch). */
export function isMobileDevice(nav: Pick<Navigator, 'userAgent' | 'maxTouchPoints'> = navigator): boolean {
  if (/android|iphone|ipad|ipod/i.test(nav.userAgent)) return true;
  return /macintosh/i.test(nav.userAgent) && nav.maxTouchPoints > 1;
}

/** MetaMask's universal link that opens `host + path` in the app's own browser. */
export function metaMaskDeepLink(host: string, pathname: string): string {
  return `https://metamask.app.link/dapp/${host}${pathname}`;
}
