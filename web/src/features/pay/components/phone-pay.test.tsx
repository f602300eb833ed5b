import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { tokenBySymbol, type QuoteJson } from '@shop/core/contract';
import { renderPage } from '@/testing/render-app';
import type { TokenQuote } from '../payment-request';
import { PhonePay } from './phone-pay';

// The SVG's modules do not spell out what they encode: this stand-in keeps the value the
// page gives the code where a test can read it.
vi.mock('qrcode.react', () => ({
  QRCodeSVG: ({ value, ...props }: { value: string; 'aria-label'?: string; role?: string; 'data-testid'?: string }) => (
    <svg role={props.role} aria-label={props['aria-label']} data-testid={props['data-testid']} data-value={value} />
  ),
}));

const RECEIVING = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const DEPOSIT = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0';
const expiresAt = new Date(Date.now() + 15 * 60_000).toISOString();

describe('PhonePay', () => {
  it("encodes ETH as today's EIP-681 value request to the receiving address, its exact wei carrying the tag", async () => {
    const quote: QuoteJson = { ethUsd: '3000.00', amountWei: '7000000000000123', amountEth: '0.007000', usdAmount: 21, receivingAddress: RECEIVING, chainId: 1, expiresAt };
    renderPage(<PhonePay quote={quote} primary />);
    expect(await screen.findByRole('img', { name: 'QR code of the payment request' })).toHaveAttribute('data-value', `ethereum:${RECEIVING}@1?value=7000000000000123`);
  });

  it.each(['USDC', 'USDT'] as const)("encodes %s as EIP-681's token transfer: the token's contract, the deposit address and the amount in its smallest units", async (symbol) => {
    const token = tokenBySymbol(symbol);
    const quote: TokenQuote = {
      asset: symbol,
      amount: '25000000',
      decimals: token.decimals,
      tokenAddress: token.address,
      payTo: DEPOSIT,
      depositAddress: DEPOSIT,
      receivingAddress: RECEIVING,
      chainId: 1,
      usdAmount: 25,
      expiresAt,
    };
    renderPage(<PhonePay quote={quote} primary={false} />);
    const uri = `ethereum:${token.address}@1/transfer?address=${DEPOSIT}&uint256=25000000`;
    const section = screen.getByRole('region', { name: 'Pay from a phone wallet' });
    expect(await within(section).findByRole('img', { name: 'QR code of the payment request' })).toHaveAttribute('data-value', uri);
    expect(within(section).getByRole('link', { name: 'Open the payment request in a wallet app' })).toHaveAttribute('href', uri);
    expect(within(section).getByText(`25.00 ${symbol}`)).toBeInTheDocument();
  });
});
