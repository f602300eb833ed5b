/**
 * True when the page has a window.ethereum provider (a desktop extension or a wallet
 * browser). Apart from lib/wagmi.ts so the pay page can ask before the wallet code loads.
 */
export function hasInjectedProvider(): boolean {
  return typeof window !== 'undefined' && (window as { ethereum?: unknown }).ethereum !== undefined;
}
