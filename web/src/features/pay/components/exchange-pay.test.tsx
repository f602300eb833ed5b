import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { QuoteJson } from '@shop/core/contract';
import { renderPage } from '@/testing/render-app';
import { ExchangePay } from './exchange-pay';

// The SVG's modules do not spell out what they encode: this stand-in keeps the props the
// pay page gives the code (its value and label) where a test can read them.
vi.mock('qrcode.react', () => ({
  QRCodeSVG: ({ value, ...props }: { value: string; 'aria-label'?: string; role?: string; 'data-testid'?: string }) => (
    <svg role={props.role} aria-label={props['aria-label']} data-testid={props['data-testid']} data-value={value} />
  ),
}));

const DEPOSIT = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0';

function makeQuote(overrides: Partial<QuoteJson> = {}): QuoteJson {
  return {
    ethUsd: '3000.00',
    amountWei: '7000000000000123',
    amountEth: '0.007000',
    usdAmount: 21,
    receivingAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    chainId: 1,
    expiresAt: new Date(Date.now() + 15 * 60_000).toISOString(),
    depositAddress: DEPOSIT,
    ...overrides,
  };
}

async function openPanel(user = userEvent.setup()) {
  const toggle = await screen.findByRole('button', { name: 'Paying from an exchange?' });
  expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await user.click(toggle);
  expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const panel = document.getElementById(toggle.getAttribute('aria-controls')!);
  expect(panel).not.toBeNull();
  return panel!;
}

describe('ExchangePay', () => {
  it.each([undefined, null])('is absent when the quote has no deposit address (%s)', (depositAddress) => {
    renderPage(<ExchangePay quote={makeQuote({ depositAddress })} />);
    expect(screen.queryByRole('button', { name: 'Paying from an exchange?' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Pay from an exchange' })).not.toBeInTheDocument();
  });

  it('opens on request: the amount to send at least, the address in full, its EIP-681 code without a value, and what happens with more or less', async () => {
    renderPage(<ExchangePay quote={makeQuote()} />);
    const section = await screen.findByRole('region', { name: 'Pay from an exchange' });
    // Collapsed, it offers nothing to send to yet.
    expect(within(section).queryByText(DEPOSIT)).not.toBeInTheDocument();

    const panel = await openPanel();
    expect(
      within(panel).getByRole('heading', { name: 'Paying from an exchange? Send at least 0.007000 ETH to this address' }),
    ).toBeInTheDocument();
    expect(within(panel).getByText(DEPOSIT)).toBeInTheDocument();
    const qr = await within(panel).findByRole('img', { name: 'QR code of the deposit address' });
    expect(qr).toHaveAttribute('data-value', `ethereum:${DEPOSIT}@1`);
    const rules = within(panel).getByRole('list', { name: 'What happens with more or less' });
    expect(within(rules).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      expect.stringContaining('the order stays underpaid, and this page shows the rest to send to the same address'),
      expect.stringContaining('the order is paid; add the extra to your balance from this order'),
      expect.stringContaining('Ethereum network only'),
      expect.stringContaining('valued at the price when it arrives'),
    ]);

    await userEvent.click(screen.getByRole('button', { name: 'Paying from an exchange?' }));
    expect(within(section).queryByText(DEPOSIT)).not.toBeInTheDocument();
  });

  it('shows, copies and encodes the address checksummed (EIP-55), whatever case the api gave it in', async () => {
    const user = userEvent.setup();
    renderPage(<ExchangePay quote={makeQuote({ depositAddress: DEPOSIT.toLowerCase() })} />);
    const panel = await openPanel(user);
    expect(within(panel).getByText(DEPOSIT)).toBeInTheDocument();
    expect(await within(panel).findByRole('img', { name: 'QR code of the deposit address' })).toHaveAttribute('data-value', `ethereum:${DEPOSIT}@1`);
    await user.click(within(panel).getByRole('button', { name: 'Copy address' }));
    expect(await navigator.clipboard.readText()).toBe(DEPOSIT);
  });

  it("copies the address and says 'Copy to clipboard'", async () => {
    const user = userEvent.setup();
    renderPage(<ExchangePay quote={makeQuote()} />);
    const panel = await openPanel(user);
    await user.click(within(panel).getByRole('button', { name: 'Copy address' }));
    expect(await navigator.clipboard.readText()).toBe(DEPOSIT);
    expect(await screen.findByText('Copy to clipboard')).toBeInTheDocument();
  });

  it('asks for the top-up of an underpaid order (its quote) on the chain the quote names', async () => {
    renderPage(<ExchangePay quote={makeQuote({ amountEth: '0.003667', usdAmount: 11, chainId: 31337 })} />);
    const panel = await openPanel();
    expect(within(panel).getByRole('heading', { name: 'Paying from an exchange? Send at least 0.003667 ETH to this address' })).toBeInTheDocument();
    expect(await within(panel).findByRole('img', { name: 'QR code of the deposit address' })).toHaveAttribute('data-value', `ethereum:${DEPOSIT}@31337`);
  });

});
