import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES, type WebhookDeliveryJson, type WebhookEndpointJson } from '@shop/core/contract';
import { signIn } from '@/testing/fixtures';
import { mockApi, reply } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

function makeEndpoint(overrides: Partial<WebhookEndpointJson> = {}): WebhookEndpointJson {
  return {
    _id: 'w1',
    url: 'https://hooks.example.com/shop',
    description: 'Accounting',
    secret: null,
    events: ['order.paid', 'refund.paid'],
    enabled: true,
    createdAt: '2026-05-01T10:00:00.000Z',
    counts: { pending: 1, delivered: 7, failed: 2 },
    ...overrides,
  };
}

const failed: WebhookDeliveryJson = {
  _id: 'd1',
  eventId: 'msg_2a1b',
  type: 'order.paid',
  subject: 'order:5b0c2f8e',
  status: 'FAILED',
  attempts: 2,
  lastStatus: 500,
  lastError: 'Internal Server Error',
  createdAt: '2026-05-06T10:00:00.000Z',
  deliveredAt: null,
  log: [
    { at: '2026-05-06T10:05:00.000Z', statusCode: 500, error: 'Internal Server Error', durationMs: 120 },
    { at: '2026-05-06T10:00:01.000Z', statusCode: null, error: 'connect ECONNREFUSED', durationMs: 15 },
  ],
};

function renderPage(extra: Record<string, unknown> = {}) {
  signIn({ _id: 'a1', isAdmin: true });
  const api = mockApi({
    'GET /api/users/2fa': { on: false, totp: false, passkeys: [], recoveryCodesLeft: 0, required: false },
    'GET /api/admin/webhooks': [makeEndpoint()],
    'POST /api/admin/webhooks/w1/secret': { secret: SECRET },
    ...extra,
  });
  renderApp('/admin/webhooks');
  return api;
}

describe('WebhooksPage', () => {
  it('explains the signatures and lists each endpoint with its events, hidden secret and delivery counts', async () => {
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Webhooks', level: 1 })).toBeInTheDocument();
    expect(screen.getByText(/retried with exponential back-off for about 3 days/)).toBeInTheDocument();
    expect(screen.getByText('webhook-signature')).toBeInTheDocument();
    expect(screen.getByText('standardwebhooks')).toBeInTheDocument();

    const endpoint = await screen.findByRole('article', { name: 'https://hooks.example.com/shop' });
    expect(within(endpoint).getByText('Accounting')).toBeInTheDocument();
    expect(within(endpoint).getByText('Enabled')).toBeInTheDocument();
    expect(within(endpoint).getByText('order.paid')).toBeInTheDocument();
    expect(within(endpoint).getByText('refund.paid')).toBeInTheDocument();
    expect(within(endpoint).getByText(/1 pending, 7 delivered/)).toBeInTheDocument();
    expect(within(endpoint).getByText('2 failed')).toHaveClass('text-destructive');

    // The list does not carry the secret: showing it asks the server (a money action, audited).
    expect(within(endpoint).queryByText(SECRET)).not.toBeInTheDocument();
    await user.click(within(endpoint).getByRole('button', { name: 'Show secret' }));
    expect(await within(endpoint).findByText(SECRET)).toBeInTheDocument();
    await user.click(within(endpoint).getByRole('button', { name: 'Copy secret' }));
    expect(await navigator.clipboard.readText()).toBe(SECRET);
  });

  // Typing and six Radix checkbox clicks are slow in jsdom on a busy machine.
  it('adds an endpoint with the event types left ticked (all by default)', async () => {
    const created = makeEndpoint({ _id: 'w2', url: 'https://erp.test/in', description: 'ERP', events: ['order.paid', 'order.expired'] });
    const { sent } = renderPage({ 'POST /api/admin/webhooks': reply(201, created) });
    const form = await screen.findByRole('form', { name: 'Add an endpoint' });
    const boxes = within(form).getAllByRole('checkbox');
    expect(boxes).toHaveLength(WEBHOOK_EVENT_TYPES.length);
    for (const box of boxes) expect(box).toBeChecked();

    await userEvent.type(within(form).getByRole('textbox', { name: 'URL' }), 'https://erp.test/in');
    await userEvent.type(within(form).getByRole('textbox', { name: 'Description' }), 'ERP');
    for (const type of WEBHOOK_EVENT_TYPES) {
      if (type !== 'order.paid' && type !== 'order.expired') await userEvent.click(within(form).getByRole('checkbox', { name: type }));
    }
    await userEvent.click(within(form).getByRole('button', { name: 'Add endpoint' }));

    expect(await screen.findByText('Webhook endpoint added')).toBeInTheDocument();
    expect(sent('POST /api/admin/webhooks')[0]?.body).toEqual({
      url: 'https://erp.test/in',
      description: 'ERP',
      events: ['order.paid', 'order.expired'],
    });
    expect(within(form).getByRole('textbox', { name: 'URL' })).toHaveValue('');
    expect(sent('GET /api/admin/webhooks').length).toBeGreaterThanOrEqual(2);
  });

  it("shows an endpoint's delivery log with its attempts, and 'Redeliver' posts once for that delivery", async () => {
    const { sent } = renderPage({
      'GET /api/admin/webhooks/w1/deliveries': [failed],
      'POST /api/admin/webhooks/deliveries/d1/redeliver': reply(202, { message: 'Redelivery queued' }),
    });
    const endpoint = await screen.findByRole('article', { name: 'https://hooks.example.com/shop' });
    expect(screen.queryByRole('table', { name: 'Deliveries' })).not.toBeInTheDocument();
    await userEvent.click(within(endpoint).getByRole('button', { name: 'Delivery log' }));

    const table = await screen.findByRole('table', { name: 'Deliveries' });
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers.slice(0, 8)).toEqual(['EVENT', 'EVENT ID', 'SUBJECT', 'STATUS', 'ATTEMPTS', 'LAST RESPONSE', 'CREATED', 'DELIVERED']);
    const row = within(table).getAllByRole('row')[1]!;
    expect(within(row).getByText('order.paid')).toBeInTheDocument();
    expect(within(row).getByText('msg_2a1b')).toBeInTheDocument();
    expect(within(row).getByText('order:5b0c2f8e')).toBeInTheDocument();
    expect(within(row).getByText('Failed')).toBeInTheDocument();
    expect(within(row).getAllByRole('cell')[5]).toHaveTextContent('HTTP 500: Internal Server Error');
    expect(within(row).getAllByRole('cell')[6]).toHaveTextContent('2026-05-06 10:00 UTC');

    await userEvent.click(within(row).getByText('2 attempts'));
    const attempts = within(row).getByRole('list', { name: 'Attempts, newest first' });
    expect(within(attempts).getAllByRole('listitem')).toHaveLength(2);
    expect(within(attempts).getByText('connect ECONNREFUSED')).toBeInTheDocument();

    await userEvent.click(within(row).getByRole('button', { name: 'Redeliver' }));
    expect(await screen.findByText('Redelivery queued')).toBeInTheDocument();
    expect(sent('POST /api/admin/webhooks/deliveries/d1/redeliver')).toHaveLength(1);
    expect(sent('GET /api/admin/webhooks/w1/deliveries').length).toBeGreaterThanOrEqual(2);
  });

  it('disables an endpoint, and deletes it only after confirming', async () => {
    const { sent } = renderPage({
      'PATCH /api/admin/webhooks/w1': makeEndpoint({ enabled: false }),
      'DELETE /api/admin/webhooks/w1': { message: 'Webhook endpoint deleted' },
    });
    const endpoint = await screen.findByRole('article', { name: 'https://hooks.example.com/shop' });
    await userEvent.click(within(endpoint).getByRole('button', { name: 'Disable' }));
    expect(await screen.findByText('Endpoint disabled')).toBeInTheDocument();
    expect(sent('PATCH /api/admin/webhooks/w1')[0]?.body).toEqual({ enabled: false });

    await userEvent.click(within(endpoint).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete the endpoint https://hooks.example.com/shop?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(sent('DELETE /api/admin/webhooks/w1')).toHaveLength(0);
    await userEvent.click(within(endpoint).getByRole('button', { name: 'Delete' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Webhook endpoint deleted')).toBeInTheDocument();
    expect(sent('DELETE /api/admin/webhooks/w1')).toHaveLength(1);
  });
});
