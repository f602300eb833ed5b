import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { startLocale } from '@/i18n/i18n';
import { signIn } from '@/testing/fixtures';
import { mockApi, reply } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const clean = { startedAt: '2026-11-22T10:00:00.000Z', durationMs: 42, discrepancies: [], checked: { users: 3, orders: 5 }, scope: 'changes', since: '2026-11-22T09:50:00.000Z' };
const broken = {
  ...clean,
  startedAt: '2026-11-22T10:01:00.000Z',
  scope: 'audit',
  since: null,
  discrepancies: [{ check: 'stock-held', message: 'The order holds 1 of the package but its movements took 0', ids: { orderId: 'o-1', productId: 'p-1' } }],
};

describe('ReconciliationPage', () => {
  afterEach(async () => {
    await startLocale('en');
  });

  it('shows that the books reconcile, then each discrepancy with its ids once the audit it asked for reports', async () => {
    signIn({ _id: 'a1', isAdmin: true });
    // The worker runs the audit: the page's first poll after asking still finds the latest
    // report, the second finds the audit's.
    let polls: number | null = null;
    const { sent } = mockApi({
      'GET /api/admin/reconciliation': () => {
        if (polls !== null) polls++;
        return { report: polls !== null && polls >= 2 ? broken : clean };
      },
      'POST /api/admin/reconciliation/run': () => {
        polls = 0;
        return reply(202, { message: 'The audit of the books has started', report: clean });
      },
    });
    renderApp('/admin/reconciliation');
    expect(await screen.findByText('The books reconcile')).toBeInTheDocument();
    expect(screen.getByText(/Changes since 2026-11-22 09:50 UTC checked 2026-11-22 10:00 UTC in 42 ms: users 3, orders 5/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Check now' }));
    expect(await screen.findByText('The audit of the books has started')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Auditing…' })).toBeDisabled();
    expect(await screen.findByText('1 discrepancy')).toBeInTheDocument();
    expect(await screen.findByText('1 discrepancy found.')).toBeInTheDocument();
    expect(screen.getByText(/Full audit 2026-11-22 10:01 UTC/)).toBeInTheDocument();
    expect(screen.getByText('Stock held')).toBeInTheDocument();
    expect(screen.getByText('orderId: o-1')).toBeInTheDocument();
    expect(sent('POST /api/admin/reconciliation/run')).toHaveLength(1);
  });

  it("reads the checked line in Russian: each name from the catalogue, one it lacks as the api sends it, and the api's words and findings as they come", async () => {
    await startLocale('ru', ['admin']);
    signIn({ _id: 'a1', isAdmin: true });
    const checked = { users: 3, 'transfers on chain': 2, chain: 'не проверено: проверки блокчейна отключены', 'audit head': '12:ab', 'something new': 1 };
    const finding = 'Заказ держит 1 шт. пакета, но движения запаса списали на него 0';
    mockApi({ 'GET /api/admin/reconciliation': { report: { ...broken, checked, discrepancies: [{ ...broken.discrepancies[0], message: finding }] } } });
    renderApp('/admin/reconciliation');
    expect(await screen.findByText(/^1 расхождение$/)).toBeInTheDocument();
    expect(
      screen.getByText(/^Полная проверка .* за 42 мс: пользователи: 3, переводы в блокчейне: 2, блокчейн: не проверено: проверки блокчейна отключены, последняя запись аудита: 12:ab, something new: 1\.$/),
    ).toBeInTheDocument();
    expect(screen.getByText('Удержанный запас')).toBeInTheDocument();
    expect(screen.getByText(finding)).toBeInTheDocument();
  });
});
