import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { DepositsSummaryJson, DepositSweepJson } from '@shop/core/contract';
import { signIn } from '@/testing/fixtures';
import { mockApi, reply, type MockRequest } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const TX = `0x${'5a'.repeat(32)}`;
const FACTORY = `0x${'fa'.repeat(20)}`;

function makeSummary(overrides: Partial<DepositsSummaryJson> = {}): DepositsSummaryJson {
  return {
    unswept: { wei: '37000000000000000', eth: '0.037000', usd: 111, addresses: 2 },
    last24h: { sweeps: 2, swept: { wei: '100000000000000000', eth: '0.100000' }, gas: { wei: '1800000000000000', eth: '0.001800' } },
    last30d: { sweeps: 5, swept: { wei: '300000000000000000', eth: '0.300000' }, gas: { wei: '2400000000000000', eth: '0.002400' } },
    sweepsWaiting: 0,
    sweeper: { state: 'idle', reason: null, at: '2026-11-27T10:00:00.000Z' },
    factory: { address: FACTORY, state: 'trusted', reason: null, checkedAt: '2026-11-27T09:58:00.000Z' },
    ...overrides,
  };
}

function makeSweep(overrides: Partial<DepositSweepJson> = {}): DepositSweepJson {
  return {
    _id: 's1',
    txHash: TX,
    status: 'CONFIRMED',
    items: 3,
    kind: 'ETH',
    tokens: null,
    expectedWei: '100000000000000000',
    sweptWei: '100000000000000000',
    feeWei: '1200000000000000',
    blockNumber: '123',
    reason: null,
    createdAt: '2026-11-27T09:00:00.000Z',
    ...overrides,
  };
}

function renderPage(summary: unknown = makeSummary(), sweeps: unknown = [makeSweep()]) {
  signIn({ _id: 'a1', isAdmin: true });
  const api = mockApi({
    'GET /api/admin/payments': [],
    'GET /api/admin/refunds/overpaid': [],
    'GET /api/admin/deposits': summary,
    'GET /api/admin/deposits/sweeps': sweeps,
    'POST /api/admin/deposits/sweep': reply(202, { message: 'The sweeper will run now' }),
  });
  renderApp('/admin/payments');
  return api;
}

const card = () => screen.findByRole('region', { name: 'Deposit addresses' });
const figure = (within_: HTMLElement, label: string) => within(within_).getByText(label).closest('div') as HTMLElement;

describe('the Deposit addresses card', () => {
  it('shows what waits to be swept in ETH and USD, the addresses waiting, what was swept and the gas it cost over 24 hours and 30 days, and the sweeper idle', async () => {
    renderPage();
    const region = await card();
    expect(await within(region).findByText('0.037000 ETH')).toBeInTheDocument();
    expect(figure(region, 'Waiting to be swept')).toHaveTextContent('USD $111.00');
    expect(figure(region, 'Addresses waiting')).toHaveTextContent('2');
    expect(figure(region, 'Addresses waiting')).toHaveTextContent('0 sweeps on the way');
    expect(figure(region, 'Swept, last 24 hours')).toHaveTextContent('0.100000 ETH');
    expect(figure(region, 'Swept, last 24 hours')).toHaveTextContent('0.300000 ETH in the last 30 days');
    expect(figure(region, 'Gas spent, last 24 hours')).toHaveTextContent('0.001800 ETH');
    expect(figure(region, 'Gas spent, last 24 hours')).toHaveTextContent('0.002400 ETH in the last 30 days');
    expect(within(region).getByText('Idle: nothing to sweep')).toBeInTheDocument();
    expect(within(region).getByText("its code is the shop's")).toBeInTheDocument();
    expect(within(region).queryByRole('alert')).not.toBeInTheDocument();
  });

  it("says, in an alert, why the deposit factory is refused: new orders get no deposit address", async () => {
    const reason = `the code at ${FACTORY} is not the shop's deposit factory (DepositFactory.sol)`;
    renderPage(makeSummary({ factory: { address: FACTORY, state: 'refused', reason, checkedAt: '2026-11-27T09:58:00.000Z' } }));
    const alert = await within(await card()).findByRole('alert');
    expect(alert).toHaveTextContent('Deposit factory refused');
    expect(alert).toHaveTextContent(`New orders get no deposit address and nothing is swept through it: ${reason}.`);
    expect(alert).toHaveTextContent('checked 2026-11-27 09:58 UTC');
  });

  it('says when the deposit factory has not been checked yet', async () => {
    renderPage(makeSummary({ factory: { address: FACTORY, state: 'checking', reason: 'the node has not answered the check yet; asking again', checkedAt: null } }));
    const region = await card();
    expect(await within(region).findByText('not checked yet: new orders get no deposit address until it is')).toBeInTheDocument();
    expect(within(region).getByText(/\(the node has not answered the check yet; asking again\)/)).toBeInTheDocument();
    expect(within(region).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says why the sweeper waits, in an alert', async () => {
    renderPage(makeSummary({ sweepsWaiting: 1, sweeper: { state: 'waiting', reason: 'The gas price (80 gwei) is above SWEEP_MAX_FEE_GWEI (50)', at: '2026-11-27T10:00:00.000Z' } }));
    const alert = await within(await card()).findByRole('alert');
    expect(alert).toHaveTextContent('Sweeper waiting');
    expect(alert).toHaveTextContent('The gas price (80 gwei) is above SWEEP_MAX_FEE_GWEI (50)');
    expect(alert).toHaveTextContent('as of 2026-11-27 10:00 UTC');
    expect(figure(await card(), 'Addresses waiting')).toHaveTextContent('1 sweep on the way');
  });

  it('says when no USD price can be read, why sweeping is off, and when the sweeper has not run', async () => {
    renderPage(makeSummary({ unswept: { wei: '0', eth: '0.000000', usd: null, addresses: 0 }, sweeper: { state: 'off', reason: 'Sweeping is off: no gas wallet is configured', at: '2026-11-27T10:00:00.000Z' } }), []);
    const region = await card();
    expect(await within(region).findByText('USD: price unavailable')).toBeInTheDocument();
    expect(within(region).getByText('Sweeping is off: no gas wallet is configured')).toBeInTheDocument();
    expect(within(region).queryByText(/Off/)).not.toBeInTheDocument();
    expect(within(region).getByText('No sweeps yet.')).toBeInTheDocument();
  });

  it('says once what the sweep it sent is, not "Sent a sweep (Sent sweep ...)"', async () => {
    const reason = `Sent sweep ${TX} of 1 address (0.010000 ETH)`;
    renderPage(makeSummary({ sweepsWaiting: 1, sweeper: { state: 'sent', reason, at: '2026-11-27T10:00:00.000Z' } }));
    const line = (await within(await card()).findByText(reason)).closest('p') as HTMLElement;
    expect(line).toHaveTextContent(`Sweeper: ${reason} as of 2026-11-27 10:00 UTC`);
    expect(line.textContent?.match(/Sent/g)).toHaveLength(1);
  });

  it("says an idle sweeper's dust after 'nothing to sweep'", async () => {
    renderPage(makeSummary({ sweeper: { state: 'idle', reason: '1 address holds only dust (0.000000 ETH, less than the gas to sweep it)', at: '2026-11-27T10:00:00.000Z' } }));
    expect(await within(await card()).findByText('Idle: nothing to sweep; 1 address holds only dust (0.000000 ETH, less than the gas to sweep it)')).toBeInTheDocument();
  });

  it('says the sweeper has not run yet before its first run', async () => {
    renderPage(makeSummary({ sweeper: null }));
    expect(await within(await card()).findByText('Sweeper: it has not run yet.')).toBeInTheDocument();
  });

  it('lists the recent sweeps (what each swept or is expected to, its gas, why one failed), labelled for the phone cards, and loads more', async () => {
    const next = '/api/admin/deposits/sweeps?cursor=abc';
    renderPage(makeSummary(), ({ path }: MockRequest) =>
      path.includes('cursor=')
        ? [makeSweep({ _id: 's4', status: 'DROPPED', sweptWei: null, feeWei: null, createdAt: '2026-11-20T09:00:00.000Z' })]
        : reply(
            200,
            [
              makeSweep({ _id: 's2', status: 'SENT', items: 1, expectedWei: '30000000000000000', sweptWei: null, feeWei: null, blockNumber: null }),
              makeSweep(),
              makeSweep({ _id: 's3', status: 'FAILED', sweptWei: null, reason: 'Reverted on chain' }),
              makeSweep({ _id: 's5', items: 2, kind: 'TOKENS', tokens: '25.00 USDC, 30.50 USDT', expectedWei: '0', sweptWei: '0' }),
            ],
            { Link: `<${next}>; rel="next"` },
          ),
    );
    const table = await within(await card()).findByRole('table', { name: 'Recent sweeps' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['TX HASH', 'STATUS', 'ADDRESSES', 'SWEPT', 'GAS', 'REASON', 'DATE']);
    const [sent, confirmed, failed, tokens] = within(table).getAllByRole('row').slice(1) as HTMLElement[];
    expect(within(sent!).getByText('Sent')).toBeInTheDocument();
    expect(within(sent!).getByText('0.030000 ETH expected')).toBeInTheDocument();
    expect(within(confirmed!).getByTitle(TX)).toBeInTheDocument();
    expect(within(confirmed!).getByText('Confirmed')).toBeInTheDocument();
    expect(within(confirmed!).getByText('0.100000 ETH')).toBeInTheDocument();
    expect(within(confirmed!).getByText('0.001200 ETH')).toBeInTheDocument();
    expect(within(confirmed!).getByText('3').closest('td')).toHaveAttribute('data-label', 'ADDRESSES');
    expect(within(failed!).getByText('Failed')).toBeInTheDocument();
    expect(within(failed!).getByText('Reverted on chain')).toBeInTheDocument();
    // A token sweep reads in its tokens, never as 0 ETH.
    expect(within(tokens!).getByText('25.00 USDC, 30.50 USDT')).toBeInTheDocument();
    expect(within(tokens!).queryByText('0.000000 ETH')).toBeNull();

    await userEvent.click(within(await card()).getByRole('button', { name: 'More sweeps' }));
    expect(await within(table).findByText('Dropped')).toBeInTheDocument();
  });

  it("shows the api's error in a red alert when the figures cannot be read", async () => {
    renderPage(reply(403, { message: 'Not authorized as an admin' }));
    expect(await within(await card()).findByText('Error: Not authorized as an admin')).toBeInTheDocument();
  });

  it("'Sweep now' asks the worker for a sweeper run and says so", async () => {
    const api = renderPage();
    const region = await card();
    await userEvent.click(await within(region).findByRole('button', { name: 'Sweep now' }));
    expect(await screen.findByText('The sweeper will run now')).toBeInTheDocument();
    expect(api.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual(['/api/admin/deposits/sweep']);
  });
});
