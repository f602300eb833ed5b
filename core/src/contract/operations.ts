import { z } from 'zod';
import {
  adminOrderDetailJson, adminOrderJson, adminOverviewJson, adminPaymentJson, adminUpdateUserBody, adminUserListItem, APPROVAL_STATUSES, approvalJson, askApprovalBody, assignPaymentBody, auditEntryJson, cancelOrderJson, CASHOUT_STATUSES, cashoutBody, cashoutJson, claimPaymentBody, createOrderBody, createRefundBody, createWebhookBody, ethPriceJson, exchangeResult, EXPORT_FILES, healthJson, idParam, LISTED_ORDER_STATUSES, loginBody, markPaidBody, messageJson, myCashoutJson, orderJson, overpaidOrderJson, overpaymentBody, passkeyRegisteredJson, passkeyRegistrationBody, passwordCheckBody, passwordResetBody, passwordResetConfirmBody, PAYMENT_STATUSES, paymentClaimJson, paymentReportJson, personJson, productJson, publishProductBody, reconciliationRunJson, reconciliationStateJson, recoveryCodesJson, REFUND_STATUSES, refundJson, refundRequestedJson, refundTransferBody, refundWalletBody, registerBody, reportPaymentBody, statementEntryJson, stepUpBody, totpEnrolmentJson, twoFactorCodeBody, twoFactorStatus, updateProductBody, updateProfileBody, updateWebhookBody, uploadResult, userJson, webAuthnOptionsJson, webhookDeliveryJson, webhookEndpointJson, webhookSecretJson,
} from './index.ts';
import { adminOrdersQuery, auditQuery, dayRangeQuery, pageQuery, searchPageQuery, statusPageQuery } from './queries.ts';

/**
 * Every operation of the api, once: what it takes (path, query, body), what it answers
 * and who may call it. The api publishes it as an OpenAPI document
 * (api/src/openapi/document.ts, GET /api/openapi.json); a test walks the app's router and
 * fails on a route missing here, and the browser journeys check each answer against its
 * schema. Not part of the contract's index: the web app does not load it.
 */

/** public: anyone; user: a signed-in user (401 otherwise); admin: a signed-in admin (403 for others). */
export type Access = 'public' | 'user' | 'admin';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type OperationAnswer = {
  status: number;
  description: string;
  /** The JSON body; absent for a body that is not JSON (`contentType`). */
  schema?: z.ZodType;
  contentType?: string;
  /** A page of a list: `limit` and `cursor` in the query, the next page in a Link header. */
  paged?: boolean;
};

export type Operation = {
  method: HttpMethod;
  /** Express's pattern: `/api/orders/:id`. */
  path: string;
  tag: string;
  summary: string;
  /** What a reader must know beyond the summary, where the api differs from DESIGN.md on purpose included. */
  description?: string;
  access: Access;
  /** Needs a second factor given in the last 10 minutes (403 with `stepUpRequired` otherwise); 'when' says when. */
  stepUp?: true | string;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** A multipart/form-data body instead of JSON (its fields). */
  multipart?: Record<string, string>;
  answers: OperationAnswer[];
  /** Error statuses beyond those every operation of its kind has (400, 401, 403, 404: see errorStatuses). */
  errors?: number[];
};

/** The error body of every status >= 400: a message a person reads; validation errors name each field in `errors`. */
export const apiErrorJson = z.looseObject({
  message: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  /** 403 from an action that needs a fresh second factor (POST /api/users/2fa/step-up, then retry). */
  stepUpRequired: z.boolean().optional(),
  /** 401 from sign-in: the account has two-factor sign-in; send `code` or `passkey` too. */
  twoFactorRequired: z.boolean().optional(),
  /** 403 from an admin page while the admin has not turned on two-factor sign-in. */
  twoFactorEnrolment: z.boolean().optional(),
});

const ok = (schema: z.ZodType, description = 'OK', status = 200): OperationAnswer => ({ status, description, schema });
const page = (item: z.ZodType, description: string): OperationAnswer => ({ status: 200, description, schema: z.array(item), paged: true });
const message = (description: string, status = 200): OperationAnswer => ({ status, description, schema: messageJson });

const PAGED = 'Paged: `limit` and `cursor`; the next page is in the `Link: <...>; rel="next"` header, absent on the last page.';

export const OPERATIONS: Operation[] = [
  // System
  {
    method: 'GET', path: '/api/health', tag: 'System', access: 'public', summary: 'Health of the database, Redis, the Ethereum node and the queues',
    description: 'ok or degraded per dependency; 503 unless all are ok. Admins and the metrics scraper (METRICS_TOKEN as a bearer token) also get `details`.',
    answers: [ok(healthJson, 'Every dependency works'), ok(healthJson, 'A dependency is down', 503)],
  },
  {
    method: 'GET', path: '/api/openapi.json', tag: 'System', access: 'public', summary: 'This document',
    answers: [{ status: 200, description: 'The OpenAPI 3.1 document of this api', contentType: 'application/json' }],
  },
  {
    method: 'GET', path: '/api/crypto/eth-price', tag: 'System', access: 'public', summary: 'The ETH price in USD the shop quotes with',
    answers: [ok(ethPriceJson)], errors: [503],
  },

  // Users and sessions
  {
    method: 'POST', path: '/api/users', tag: 'Users', access: 'public', summary: 'Register, and sign in',
    description: 'Sets the session cookie. An unknown referral code is a 400; a taken e-mail is a 409.',
    body: registerBody, answers: [ok(userJson, 'The new user, signed in', 201)], errors: [409, 429],
  },
  {
    method: 'POST', path: '/api/users/login', tag: 'Users', access: 'public', summary: 'Sign in',
    description: 'Sets the session cookie. 401 on bad credentials, the same whether the e-mail has an account or not. An account with two-factor sign-in answers 401 with `twoFactorRequired` until `code` or `passkey` is sent too.',
    body: loginBody, answers: [ok(userJson, 'The user, signed in')], errors: [401, 429],
  },
  {
    method: 'POST', path: '/api/users/logout', tag: 'Users', access: 'public', summary: 'Sign out: ends this session on the server',
    answers: [message('Signed out')],
  },
  {
    method: 'POST', path: '/api/users/password-reset', tag: 'Users', access: 'public', summary: 'Ask for a password reset link by e-mail',
    description: 'The same answer whether or not the e-mail has an account.',
    body: passwordResetBody, answers: [message('Asked for', 202)], errors: [429],
  },
  {
    method: 'POST', path: '/api/users/password-reset/confirm', tag: 'Users', access: 'public', summary: "Set a new password with the e-mail's token",
    description: "Ends every session of the account, this one too.",
    body: passwordResetConfirmBody, answers: [message('Password changed')], errors: [429],
  },
  { method: 'GET', path: '/api/users/profile', tag: 'Users', access: 'user', summary: 'The signed-in user', answers: [ok(userJson)] },
  {
    method: 'PUT', path: '/api/users/profile', tag: 'Users', access: 'user', stepUp: 'when the e-mail or the password changes', summary: "Change the signed-in user's name, e-mail or password",
    description: "A new e-mail or password ends the user's other sessions.",
    body: updateProfileBody, answers: [ok(userJson)], errors: [409],
  },
  {
    method: 'GET', path: '/api/users/profile/referrals', tag: 'Users', access: 'user', summary: 'The people the signed-in user referred, newest first',
    query: pageQuery, answers: [page(personJson, PAGED)],
  },
  {
    method: 'GET', path: '/api/users/profile/statement', tag: 'Users', access: 'user', summary: "The signed-in user's statement: one line per balance movement, newest first",
    query: pageQuery, answers: [page(statementEntryJson, PAGED)],
  },
  {
    method: 'GET', path: '/api/users/profile/cashouts', tag: 'Users', access: 'user', summary: "The signed-in user's cashouts still waiting to be paid",
    answers: [ok(z.array(myCashoutJson))],
  },
  {
    method: 'POST', path: '/api/users/exchange', tag: 'Users', access: 'user', summary: 'Move the whole active balance to the passive balance',
    description: 'An active balance of 0 is a 400.',
    answers: [ok(exchangeResult)], errors: [400],
  },
  {
    method: 'POST', path: '/api/users/cashout', tag: 'Users', access: 'user', stepUp: true, summary: 'Ask for the active balance to be paid out in ETH to a wallet',
    description: "400 'Not Enough Money' unless the active balance is above CASHOUT_MINIMUM; the answer is the user with an active balance of 0.",
    body: cashoutBody, answers: [ok(userJson)], errors: [409],
  },

  // Two-factor sign-in
  { method: 'GET', path: '/api/users/2fa', tag: 'Two-factor sign-in', access: 'user', summary: "The signed-in user's second factors", answers: [ok(twoFactorStatus)] },
  {
    method: 'POST', path: '/api/users/2fa/totp', tag: 'Two-factor sign-in', access: 'user', stepUp: 'when the account has a second factor already', summary: 'Start authenticator-app enrolment (the password again)',
    body: passwordCheckBody, answers: [ok(totpEnrolmentJson)], errors: [409, 429],
  },
  {
    method: 'POST', path: '/api/users/2fa/totp/confirm', tag: 'Two-factor sign-in', access: 'user', summary: "Finish enrolment with a first code: the recovery codes, shown once",
    body: twoFactorCodeBody, answers: [ok(recoveryCodesJson)], errors: [409, 429],
  },
  {
    method: 'POST', path: '/api/users/2fa/totp/disable', tag: 'Two-factor sign-in', access: 'user', summary: 'Turn the authenticator app off with a current code',
    body: twoFactorCodeBody, answers: [message('Turned off')], errors: [429],
  },
  {
    method: 'POST', path: '/api/users/2fa/passkeys/options', tag: 'Two-factor sign-in', access: 'user', stepUp: 'when the account has a second factor already', summary: 'WebAuthn options to create a passkey (the password again)',
    body: passwordCheckBody, answers: [ok(webAuthnOptionsJson, 'PublicKeyCredentialCreationOptionsJSON')], errors: [429],
  },
  {
    method: 'POST', path: '/api/users/2fa/passkeys', tag: 'Two-factor sign-in', access: 'user', stepUp: 'when the account has a second factor already', summary: 'Register the passkey the browser created',
    body: passkeyRegistrationBody, answers: [ok(passkeyRegisteredJson, 'The passkey (and recovery codes when it is the first factor)', 201)], errors: [429],
  },
  {
    method: 'DELETE', path: '/api/users/2fa/passkeys/:id', tag: 'Two-factor sign-in', access: 'user', stepUp: true, summary: 'Remove a passkey',
    answers: [message('Removed')],
  },
  {
    method: 'POST', path: '/api/users/2fa/step-up/options', tag: 'Two-factor sign-in', access: 'user', summary: "WebAuthn options to confirm it is you with a passkey",
    description: 'A user without a passkey gets a 400 (enter a code instead).',
    answers: [ok(webAuthnOptionsJson, 'PublicKeyCredentialRequestOptionsJSON')], errors: [400, 429],
  },
  {
    method: 'POST', path: '/api/users/2fa/step-up', tag: 'Two-factor sign-in', access: 'user', summary: 'Confirm it is you (a code or a passkey): money actions are allowed for 10 minutes',
    body: stepUpBody, answers: [message('Confirmed')], errors: [429],
  },

  // Admin: users
  {
    method: 'GET', path: '/api/users', tag: 'Admin: users', access: 'admin', summary: 'Every user, newest first',
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

  // Catalogue
  {
    method: 'GET', path: '/api/products', tag: 'Catalogue', access: 'public', summary: 'The packages on sale, newest first',
    query: searchPageQuery('name'), answers: [page(productJson, PAGED)],
  },
  { method: 'GET', path: '/api/products/:id', tag: 'Catalogue', access: 'public', summary: 'One package on sale', answers: [ok(productJson)] },
  {
    method: 'POST', path: '/api/products', tag: 'Admin: catalogue', access: 'admin', stepUp: true, summary: 'Create a sample package (a draft to edit)',
    answers: [ok(productJson, 'Created', 201)],
  },
  {
    method: 'PUT', path: '/api/products/:id', tag: 'Admin: catalogue', access: 'admin', stepUp: true, summary: 'Edit a package',
    description: '`loadedCountInStock` is the stock the form showed: stock that orders took or gave back since is not overwritten (409).',
    body: updateProductBody, answers: [ok(productJson)], errors: [409],
  },
  { method: 'DELETE', path: '/api/products/:id/delete', tag: 'Admin: catalogue', access: 'admin', stepUp: true, summary: 'Delete a package', answers: [message('Deleted')], errors: [409] },
  {
    method: 'GET', path: '/api/admin/products', tag: 'Admin: catalogue', access: 'admin', summary: 'Every package, drafts too, newest first',
    query: searchPageQuery('name'), answers: [page(productJson, PAGED)],
  },
  { method: 'GET', path: '/api/admin/products/:id', tag: 'Admin: catalogue', access: 'admin', summary: 'One package, draft or not', answers: [ok(productJson)] },
  {
    method: 'POST', path: '/api/admin/products/:id/publish', tag: 'Admin: catalogue', access: 'admin', stepUp: true, summary: 'Put a package on sale or take it off',
    body: publishProductBody, answers: [ok(productJson)], errors: [409],
  },
  {
    method: 'POST', path: '/api/uploads', tag: 'Admin: catalogue', access: 'admin', summary: "Upload a package's image",
    description: 'Images only (checked by decoding), size-limited; served from /uploads/...',
    multipart: { image: 'The image file (PNG, JPEG, WebP or GIF)' }, answers: [ok(uploadResult, 'Stored', 201)], errors: [413],
  },

  // Orders
  {
    method: 'POST', path: '/api/orders', tag: 'Orders', access: 'user', summary: 'Place an order: stock is reserved and the order is quoted in ETH',
    description:
      'The server prices the order from the database: a client total that differs is a 409 with a message the summary panel shows. ' +
      'Differs from DESIGN.md on purpose (docs/decisions.md, "One account\'s hold on stock"): one buyer may hold at most MAX_OPEN_ORDERS_PER_USER (3) unpaid orders, ' +
      'MAX_HELD_TAGS_PER_USER (20) payment tags of unpaid orders from the last LATE_PAYMENT_HOURS, and MAX_UNPAID_STOCK_SHARE_PERCENT (25%) of a package\'s stock (always up to 5 units) in unpaid orders; ' +
      'an order past any of these caps is a 409 saying which and what to do.',
    body: createOrderBody, answers: [ok(orderJson, 'Placed', 201)], errors: [409, 503],
  },
  {
    method: 'GET', path: '/api/orders/mine', tag: 'Orders', access: 'user', summary: "The signed-in user's orders, newest first",
    query: statusPageQuery(LISTED_ORDER_STATUSES), answers: [page(orderJson, PAGED)],
  },
  {
    method: 'GET', path: '/api/orders/:id', tag: 'Orders', access: 'user', summary: 'One order (its owner or an admin), with its quote while unpaid and its payments',
    description: "Another user's order is a 404.",
    answers: [ok(orderJson)],
  },
  {
    method: 'PUT', path: '/api/orders/:id/purchased', tag: 'Orders', access: 'user', summary: "Report the payment's transaction hash",
    description: 'Only reports a payment: the worker verifies it on chain and decides. A hash already used by another order is a 409.',
    body: reportPaymentBody, answers: [ok(paymentReportJson, 'Reported', 202)], errors: [409, 429],
  },
  {
    method: 'PUT', path: '/api/orders/:id/claim', tag: 'Orders', access: 'user', summary: 'Claim a transfer that arrived without the order\'s tag, signed by the address that sent it',
    body: claimPaymentBody, answers: [ok(paymentClaimJson)], errors: [409, 429, 503],
  },
  {
    method: 'POST', path: '/api/orders/:id/overpayment', tag: 'Orders', access: 'user', summary: 'What to do with what a paid order received beyond its total: balance or refund',
    body: overpaymentBody, answers: [message('Done')], errors: [409, 503],
  },
  { method: 'POST', path: '/api/orders/:id/cancel', tag: 'Orders', access: 'user', summary: "Cancel the signed-in user's unpaid order", answers: [ok(cancelOrderJson)], errors: [409] },

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
    method: 'POST', path: '/api/admin/payments/:id/assign', tag: 'Admin: orders', access: 'admin', stepUp: true, summary: 'Attribute an unresolved transfer to an order',
    body: assignPaymentBody, answers: [ok(paymentClaimJson)], errors: [409, 503],
  },
  {
    method: 'POST', path: '/api/admin/payments/:id/refund', tag: 'Admin: orders', access: 'admin', stepUp: true, summary: 'Refund a transfer to the address that sent it (or a wallet named)',
    body: refundTransferBody, answers: [ok(refundRequestedJson, 'Refund requested', 201)], errors: [409],
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
  { method: 'POST', path: '/api/admin/approvals/:id/reject', tag: 'Admin: money out', access: 'admin', summary: 'Reject', answers: [ok(approvalJson)], errors: [409] },

  // Admin: operations
  { method: 'GET', path: '/api/admin/reconciliation', tag: 'Admin: operations', access: 'admin', summary: "The reconciler's latest report", answers: [ok(reconciliationStateJson)] },
  {
    method: 'POST', path: '/api/admin/reconciliation/run', tag: 'Admin: operations', access: 'admin', summary: 'Start a full audit of the books in the worker',
    answers: [ok(reconciliationRunJson, 'Started (or already running)', 202)],
  },
  {
    method: 'GET', path: '/api/admin/audit', tag: 'Admin: operations', access: 'admin', summary: 'The audit log, newest first (hash-chained)',
    query: auditQuery, answers: [page(auditEntryJson, PAGED)],
  },
  { method: 'GET', path: '/api/admin/overview', tag: 'Admin: operations', access: 'admin', summary: 'Revenue, orders and open work over a range of UTC days', query: dayRangeQuery, answers: [ok(adminOverviewJson)] },
  ...(Object.entries(EXPORT_FILES) as [string, string][]).map(([file, what]): Operation => ({
    method: 'GET', path: `/api/admin/export/${file}.csv`, tag: 'Admin: operations', access: 'admin', summary: `CSV: ${what}`,
    description: 'Streamed; each export is written to the audit log first.',
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

/** The path parameters of an Express pattern (`/api/orders/:id` -> ['id']). */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
}

/** The error statuses an operation answers: its own, and those of its kind. */
export function errorStatuses(op: Operation): number[] {
  const statuses = new Set<number>(op.errors ?? []);
  if (op.body || op.query || op.multipart || pathParams(op.path).length > 0) statuses.add(400);
  if (op.access !== 'public') statuses.add(401);
  if (op.access === 'admin' || op.stepUp) statuses.add(403);
  if (pathParams(op.path).length > 0) statuses.add(404);
  return [...statuses].sort((a, b) => a - b);
}

/** The path schema of an operation: every parameter is an id (a UUID; anything else is a 404). */
export function pathSchema(op: Operation): z.ZodObject | undefined {
  const names = pathParams(op.path);
  return names.length ? z.object(Object.fromEntries(names.map((n) => [n, idParam]))) : undefined;
}
