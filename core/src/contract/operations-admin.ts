import { z } from 'zod';
import {
  adminOrderDetailJson, adminOrderJson, assignableOrderJson, adminOverviewJson, adminWaitingJson, adminPaymentJson, adminUpdateUserBody, adminUserListItem, APPROVAL_STATUSES, depositsSummaryJson, depositSweepJson, sweepRunJson, approvalJson, askApprovalBody, assignPaymentBody, auditEntryJson, CASHOUT_STATUSES, cashoutJson, createRefundBody, createWebhookBody, EXPORT_FILES, LISTED_ORDER_STATUSES, markPaidBody, overpaidOrderJson, PAYMENT_STATUSES, paymentClaimJson, reconciliationRunJson, reconciliationStateJson, REFUND_STATUSES, refundJson, refundRequestedJson, refundTransferBody, refundWalletBody, updateWebhookBody, userJson, webhookDeliveryJson, webhookEndpointJson, webhookSecretJson,
} from './index.ts';
import { ok, page, message, PAGED, type Operation } from './operation-parts.ts';
import { adminOrdersQuery, auditQuery, dayRangeQuery, pageQuery, searchPageQuery, statusPageQuery } from './queries.ts';

/** The admin console's calls. */
export const adminOperations: Operation[] = [
  // Admin: users
  {
    method: 'GET', path: '/api/users', tag: 'Admin: users', access: 'admin', stepUp: true, summary: 'Every user, newest first',
    description: "Every user's e-mail, page after page: a stolen session alone must not read them.",
    query: searchPageQuery('name or e-mail'), answers: [page(adminUserListItem, PAGED)],
  },
  { method: 'GET', path: '/api/users/:id', tag: 'Admin: users', access: 'admin', summary: 'One user', answers: [ok(userJson)] },
  {
    method: 'PUT', path: '/api/users/:id', tag: 'Admin: users', access: 'admin', stepUp: true, summary: "Edit a user: name, e-mail, admin rights, balances, password",
    description:
      'Differs from DESIGN.md on purpose: the body must also carry `loadedActiveBalance` and `loadedPassiveBalance`, the balances the edit form was loaded with. ' +
      'If either balance moved since (a daily credit, a referral reward, a cashout), the edit is refused with a 409 instead of overwriting that movement; ' +
      'a request without them is a 400 saying so. A balance increase above APPROVAL_THRESHOLD_USD, or admin rights, wait for a second admin: the answer is then 202 with `pendingApproval` or `pendingAdminGrant`. ' +
      'Nobody can remove their own admin rights.',
    body: adminUpdateUserBody, answers: [ok(userJson, 'Saved'), ok(userJson, 'Saved, part of it waiting for a second admin', 202)], errors: [409],
  },
  {
    method: 'DELETE', path: '/api/users/:id', tag: 'Admin: users', access: 'admin', stepUp: true, summary: 'Delete a user (an admin cannot be deleted)',
    answers: [message('Deleted')], errors: [409],
  },

  // Admin: orders and payments
  {
    method: 'GET', path: '/api/orders', tag: 'Admin: orders', access: 'admin', summary: 'Every order, newest first',
    query: adminOrdersQuery(LISTED_ORDER_STATUSES), answers: [page(adminOrderJson, PAGED)],
  },
  { method: 'GET', path: '/api/admin/orders/:id', tag: 'Admin: orders', access: 'admin', summary: 'One order with everything an admin acts on', answers: [ok(adminOrderDetailJson)] },
  { method: 'DELETE', path: '/api/orders/:id/delete', tag: 'Admin: orders', access: 'admin', stepUp: true, summary: 'Delete an order (its stock goes back)', answers: [message('Deleted')], errors: [409] },
  {
    method: 'GET', path: '/api/admin/payments', tag: 'Admin: orders', access: 'admin', summary: 'Transfers, the unresolved and late ones by default',
    query: statusPageQuery(PAYMENT_STATUSES), answers: [page(adminPaymentJson, PAGED)],
  },
  {
    method: 'GET', path: '/api/admin/payments/:id/orders', tag: 'Admin: orders', access: 'admin', summary: 'The open orders a transfer can be assigned to',
    description:
      "`q`: an order's reference (ORD-…, the prefix optional) or id, or the buyer's e-mail or name (their open orders); without it, the orders the transfer was reported for and their buyers' open orders. " +
      'Open: not paid, cancelled or deleted, and placed before the transfer was seen. Newest first, at most 20 (not paged). 409 for a transfer that cannot be assigned.',
    query: z.object({ q: z.string().max(100).optional().describe("An order's reference or id, or the buyer's e-mail or name (at most 100 characters).") }),
    answers: [ok(z.array(assignableOrderJson))], errors: [409],
  },
  {
    method: 'POST', path: '/api/admin/payments/:id/assign', tag: 'Admin: orders', access: 'admin', stepUp: true, summary: 'Attribute an unresolved transfer to an order',
    description: '`orderId`: the order\'s reference (ORD-…, the prefix optional) or its id. A reference two orders share (about once in 2M orders) is a 409: use the id.',
    body: assignPaymentBody, answers: [ok(paymentClaimJson)], errors: [409, 503],
  },
  {
    method: 'POST', path: '/api/admin/payments/:id/refund', tag: 'Admin: orders', access: 'admin', stepUp: true, summary: 'Refund a transfer to the address that sent it (or a wallet named)',
    body: refundTransferBody, answers: [ok(refundRequestedJson, 'Refund requested', 201)], errors: [409],
  },
  {
    method: 'GET', path: '/api/admin/deposits', tag: 'Admin: orders', access: 'admin', summary: "The deposit addresses: ETH not yet swept, sweeps and their gas, the sweeper's state",
    description: "Unswept: deposits not yet moved on to the receiving address (USD at the current price, null while none can be read). Swept and gas: the sweeps sent in the last 24 hours and 30 days. Factory: whether the configured deposit factory's code is the shop's for the receiving address (refused or not yet checked: new orders get no deposit address, and why).",
    answers: [ok(depositsSummaryJson)],
  },
  {
    method: 'POST', path: '/api/admin/deposits/sweep', tag: 'Admin: orders', access: 'admin', summary: 'Run the deposit sweeper now (besides its schedule)',
    description: 'The sweeper runs in the worker under its rules (settled orders only, the price ceiling, the gas budget); its state on GET /api/admin/deposits says what it did or why it waits.',
    answers: [ok(sweepRunJson, 'Queued (or already queued)', 202)],
  },
  {
    method: 'GET', path: '/api/admin/deposits/sweeps', tag: 'Admin: orders', access: 'admin', summary: "The sweeper's transactions, newest first",
    query: pageQuery, answers: [page(depositSweepJson, PAGED)],
  },

  // Admin: money out
  {
    method: 'GET', path: '/api/admin/cashouts', tag: 'Admin: money out', access: 'admin', summary: 'Cashout requests (the open ones oldest first)',
    query: statusPageQuery(CASHOUT_STATUSES), answers: [page(cashoutJson, PAGED)],
  },
  {
    method: 'POST', path: '/api/admin/cashouts/:id/paid', tag: 'Admin: money out', access: 'admin', stepUp: true, summary: 'Give the payout transaction: the worker checks it on chain before the request is paid',
    body: markPaidBody, answers: [ok(cashoutJson, 'Being checked', 202)], errors: [409],
  },
  {
    method: 'DELETE', path: '/api/admin/cashouts/:id/paid', tag: 'Admin: money out', access: 'admin', stepUp: true, summary: 'Withdraw a payout hash the node never showed (a mistyped one)',
    answers: [ok(cashoutJson)], errors: [409],
  },
  {
    method: 'POST', path: '/api/admin/cashouts/:id/reject', tag: 'Admin: money out', access: 'admin', stepUp: true, summary: 'Reject a cashout request: the amount goes back to the active balance',
    answers: [ok(cashoutJson)], errors: [409],
  },
  {
    method: 'GET', path: '/api/admin/refunds', tag: 'Admin: money out', access: 'admin', summary: 'Refunds in the payout queue',
    query: statusPageQuery(REFUND_STATUSES), answers: [page(refundJson, PAGED)],
  },
  { method: 'GET', path: '/api/admin/refunds/overpaid', tag: 'Admin: money out', access: 'admin', summary: 'Orders with an overpayment left to settle', query: pageQuery, answers: [page(overpaidOrderJson, PAGED)] },
  {
    method: 'POST', path: '/api/admin/refunds', tag: 'Admin: money out', access: 'admin', stepUp: true, summary: "Refund an order's overpayment, one refund per transfer that overpaid",
    body: createRefundBody, answers: [ok(z.array(refundJson), 'Refunds requested', 201)], errors: [409],
  },
  {
    method: 'POST', path: '/api/admin/refunds/:id/paid', tag: 'Admin: money out', access: 'admin', stepUp: true, summary: 'Give the refund\'s payout transaction: the worker checks it on chain',
    body: markPaidBody, answers: [ok(refundJson, 'Being checked', 202)], errors: [409],
  },
  { method: 'DELETE', path: '/api/admin/refunds/:id/paid', tag: 'Admin: money out', access: 'admin', stepUp: true, summary: 'Withdraw a payout hash the node never showed', answers: [ok(refundJson)], errors: [409] },
  {
    method: 'PUT', path: '/api/refunds/:id/wallet', tag: 'Orders', access: 'user', summary: 'Send a refund to another wallet, signed by the address that sent the refunded ETH',
    body: refundWalletBody, answers: [ok(refundJson)], errors: [409, 429, 503],
  },
  {
    method: 'GET', path: '/api/admin/approvals', tag: 'Admin: money out', access: 'admin', summary: 'Large money moves waiting for a second admin',
    query: statusPageQuery(APPROVAL_STATUSES), answers: [page(approvalJson, PAGED)],
  },
  { method: 'POST', path: '/api/admin/approvals', tag: 'Admin: money out', access: 'admin', summary: 'Ask a second admin to approve paying a cashout or a refund', body: askApprovalBody, answers: [ok(approvalJson, 'Asked', 201)], errors: [409] },
  { method: 'POST', path: '/api/admin/approvals/:id/approve', tag: 'Admin: money out', access: 'admin', stepUp: true, summary: 'Approve (not the admin who asked)', answers: [ok(approvalJson)], errors: [409] },
  {
    method: 'POST', path: '/api/admin/approvals/:id/reject', tag: 'Admin: money out', access: 'admin', stepUp: true, summary: 'Reject (not the admin who asked: they withdraw it)',
    description: 'Audited as `approval.rejected`. The admin who asked gets a 403 that says to withdraw it instead.',
    answers: [ok(approvalJson)], errors: [409],
  },
  {
    method: 'POST', path: '/api/admin/approvals/:id/withdraw', tag: 'Admin: money out', access: 'admin', summary: 'Withdraw one\'s own request (only the admin who asked)',
    description: 'Audited as `approval.withdrawn`; the approval is then REJECTED, decided by the admin who asked.',
    answers: [ok(approvalJson)], errors: [409],
  },

  // Admin: operations
  { method: 'GET', path: '/api/admin/reconciliation', tag: 'Admin: operations', access: 'admin', summary: "The reconciler's latest report", answers: [ok(reconciliationStateJson)] },
  {
    method: 'POST', path: '/api/admin/reconciliation/run', tag: 'Admin: operations', access: 'admin', summary: 'Start a full audit of the books in the worker',
    answers: [ok(reconciliationRunJson, 'Started (or already running)', 202)],
  },
  {
    method: 'GET', path: '/api/admin/audit', tag: 'Admin: operations', access: 'admin', stepUp: true, summary: 'The audit log, newest first (hash-chained)',
    query: auditQuery, answers: [page(auditEntryJson, PAGED)],
  },
  {
    method: 'GET', path: '/api/admin/overview/waiting', tag: 'Admin: operations', access: 'admin', summary: "What waits for this admin: the Admin menu's counts",
    description: 'Pending approvals this admin may decide and cashouts waiting to be paid, each counted up to WAITING_CAP (100).',
    answers: [ok(adminWaitingJson)],
  },
  { method: 'GET', path: '/api/admin/overview', tag: 'Admin: operations', access: 'admin', summary: 'Revenue, orders and open work over a range of UTC days', query: dayRangeQuery, answers: [ok(adminOverviewJson)] },
  {
    method: 'GET', path: '/api/admin/export/ready', tag: 'Admin: operations', access: 'admin', stepUp: true, summary: 'Whether this session may download the CSV exports now',
    description: 'A 204 when a second factor was given in the last 10 minutes (or the admin has none): the web asks for one before the browser follows a download link.',
    answers: [{ status: 204, description: 'The exports may be downloaded' }],
  },
  ...(Object.entries(EXPORT_FILES) as [string, string][]).map(([file, what]): Operation => ({
    method: 'GET', path: `/api/admin/export/${file}.csv`, tag: 'Admin: operations', access: 'admin', stepUp: true, summary: `CSV: ${what}`,
    description: 'Streamed; each export is written to the audit log first. Every e-mail and ledger line of the range is in it: a stolen session alone must not take it.',
    query: dayRangeQuery, answers: [{ status: 200, description: 'The CSV file', contentType: 'text/csv' }],
  })),

  // Admin: webhooks
  { method: 'GET', path: '/api/admin/webhooks', tag: 'Admin: webhooks', access: 'admin', summary: 'Webhook endpoints', query: pageQuery, answers: [page(webhookEndpointJson, PAGED)] },
  {
    method: 'POST', path: '/api/admin/webhooks', tag: 'Admin: webhooks', access: 'admin', stepUp: true, summary: 'Add an endpoint: its answer is the only one that carries the signing secret',
    body: createWebhookBody, answers: [ok(webhookEndpointJson, 'Created', 201)],
  },
  { method: 'POST', path: '/api/admin/webhooks/:id/secret', tag: 'Admin: webhooks', access: 'admin', stepUp: true, summary: "Reveal an endpoint's signing secret (audited)", answers: [ok(webhookSecretJson)] },
  { method: 'PATCH', path: '/api/admin/webhooks/:id', tag: 'Admin: webhooks', access: 'admin', stepUp: true, summary: 'Change an endpoint', body: updateWebhookBody, answers: [ok(webhookEndpointJson)] },
  { method: 'DELETE', path: '/api/admin/webhooks/:id', tag: 'Admin: webhooks', access: 'admin', stepUp: true, summary: 'Delete an endpoint', answers: [message('Deleted')] },
  {
    method: 'GET', path: '/api/admin/webhooks/:id/deliveries', tag: 'Admin: webhooks', access: 'admin', summary: "An endpoint's deliveries, newest first, with their attempts",
    query: pageQuery, answers: [page(webhookDeliveryJson, PAGED)],
  },
  { method: 'POST', path: '/api/admin/webhooks/deliveries/:id/redeliver', tag: 'Admin: webhooks', access: 'admin', summary: 'Deliver again (same event id)', answers: [message('Queued', 202)], errors: [409] },
];
