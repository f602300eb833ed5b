import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AuditEntryJson } from '@shop/core/contract';
import { signIn } from '@/testing/fixtures';
import { mockApi } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const entry = (over: Partial<AuditEntryJson>): AuditEntryJson => ({
  _id: 'e1',
  seq: '1',
  at: '2026-11-20T10:00:00.000Z',
  actor: { id: 'a1', email: 'ada@example.com' },
  action: 'user.update',
  subject: { type: 'user', id: 'u1', name: 'Bea Buyer' },
  before: null,
  after: null,
  ip: '203.0.113.7',
  userAgent: 'Firefox',
  prevHash: '0'.repeat(64),
  hash: 'f'.repeat(64),
  ...over,
});

describe('AuditLogPage', () => {
  it('shows who did what to what, with before and after, and filters by action in the URL', async () => {
    signIn({ _id: 'a1', isAdmin: true });
    const { sent } = mockApi({
      'GET /api/users/2fa': { on: false, totp: false, passkeys: [], recoveryCodesLeft: 0, required: false },
      'GET /api/admin/audit': [
        entry({ _id: 'e2', seq: '2', action: 'user.update', before: { activeBalance: '10.00' }, after: { activeBalance: '25.50' } }),
        entry({ _id: 'e1', seq: '1', actor: null, action: 'user.login_failed', subject: null, after: { email: 'ghost@example.com' } }),
      ],
    });
    const { router } = renderApp('/admin/audit');
    const table = await screen.findByRole('table');
    const [update, failed] = within(table).getAllByRole('row').slice(1);
    expect(within(update!).getByText('ada@example.com')).toBeInTheDocument();
    expect(within(update!).getByText('10.00')).toBeInTheDocument();
    expect(within(update!).getByText('25.50')).toBeInTheDocument();
    // When, with its zone; what was acted on by its name, linked to its page.
    expect(within(update!).getByText('2026-11-20 10:00 UTC')).toBeInTheDocument();
    expect(within(update!).getByRole('link', { name: 'Bea Buyer' })).toHaveAttribute('href', '/admin/user/u1/edit');
    expect(within(failed!).getByText('anonymous')).toBeInTheDocument();
    expect(within(failed!).getByText('ghost@example.com')).toBeInTheDocument();

    await userEvent.selectOptions(screen.getByLabelText('Action'), 'user.login_failed');
    await waitFor(() => expect(router.location.search).toBe('?action=user.login_failed'));
    await waitFor(() => expect(sent('GET /api/admin/audit').at(-1)?.path).toContain('action=user.login_failed'));
  });

  it("links each subject to its page by the name people know it by, and offers the subject's other entries", async () => {
    signIn({ _id: 'a1', isAdmin: true });
    const ORDER = '3f2a9c1e-0000-4000-8000-000000000001';
    mockApi({
      'GET /api/users/2fa': { on: false, totp: false, passkeys: [], recoveryCodesLeft: 0, required: false },
      'GET /api/admin/audit': [
        entry({ _id: 'e3', seq: '3', action: 'order.delete', subject: { type: 'order', id: ORDER, name: 'ORD-3F2A9C1E00' } }),
        entry({ _id: 'e2', seq: '2', action: 'product.update', subject: { type: 'product', id: 'p1', name: 'Gold Package' } }),
        entry({ _id: 'e1', seq: '1', action: 'cashout.rejected', subject: { type: 'cashout', id: 'c1', name: null } }),
      ],
    });
    renderApp('/admin/audit');
    const table = await screen.findByRole('table');
    const [order, product, cashout] = within(table).getAllByRole('row').slice(1);
    expect(within(order!).getByRole('link', { name: 'ORD-3F2A9C1E00' })).toHaveAttribute('href', `/admin/order/${ORDER}`);
    expect(within(product!).getByRole('link', { name: 'Gold Package' })).toHaveAttribute('href', '/admin/products/p1/edit');
    expect(within(cashout!).getByRole('link', { name: 'cashout c1' })).toHaveAttribute('href', '/admin/cashouts');
    expect(within(order!).getByRole('link', { name: 'Its entries (about ORD-3F2A9C1E00)' })).toHaveAttribute('href', `/admin/audit?subject=${ORDER}`);
  });

  it('sends an admin who must turn on two-factor sign-in to Security instead', async () => {
    signIn({ _id: 'a1', isAdmin: true });
    mockApi({ 'GET /api/users/2fa': { on: false, totp: false, passkeys: [], recoveryCodesLeft: 0, required: true } });
    const { router } = renderApp('/admin/audit');
    await waitFor(() => expect(router.location.pathname).toBe('/profile/security'));
    expect(await screen.findByText('This shop requires two-factor sign-in for admins: turn it on to open the admin pages.')).toBeInTheDocument();
  });
});
