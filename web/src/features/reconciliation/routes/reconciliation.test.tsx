import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { routes } from '@/app/router';
import { signIn } from '@/testing/fixtures';
import { mockApi } from '@/testing/mock-api';
import { renderRoutes } from '@/testing/render-app';

const clean = { startedAt: '2026-11-22T10:00:00.000Z', durationMs: 42, discrepancies: [], checked: { users: 3, orders: 5 } };
const broken = {
  ...clean,
  discrepancies: [{ check: 'stock-held', message: 'The order holds 1 of the package but its movements took 0', ids: { orderId: 'o-1', productId: 'p-1' } }],
};

describe('ReconciliationPage', () => {
  it('shows that the books reconcile, then each discrepancy with its ids after a check', async () => {
    signIn({ _id: 'a1', isAdmin: true });
    const { sent } = mockApi({ 'GET /api/admin/reconciliation': { report: clean }, 'POST /api/admin/reconciliation/run': { report: broken } });
    renderRoutes(routes, '/admin/reconciliation');
    expect(await screen.findByText('The books reconcile')).toBeInTheDocument();
    expect(screen.getByText(/users 3, orders 5/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Check now' }));
    expect(await screen.findByText('1 discrepancies')).toBeInTheDocument();
    expect(screen.getByText('Stock held')).toBeInTheDocument();
    expect(screen.getByText('orderId: o-1')).toBeInTheDocument();
    expect(sent('POST /api/admin/reconciliation/run')).toHaveLength(1);
  });
});
