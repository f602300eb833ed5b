import {
  authorizationAcceptedJson, authorizationBody, cancelOrderJson, claimPaymentBody, createOrderBody, LISTED_ORDER_STATUSES, orderJson, overpaymentBody, paymentClaimJson, paymentReportJson, productJson, publishProductBody, reportPaymentBody, updateProductBody, uploadResult,
} from './index.ts';
import { ok, page, message, PAGED, type Operation } from './operation-parts.ts';
import { searchPageQuery, statusPageQuery } from './queries.ts';

/** The catalogue, and a buyer's orders and payments. */
export const shopOperations: Operation[] = [
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
    description:
      '`loadedCountInStock` is the stock the form showed: stock that orders took or gave back since is not overwritten (409). ' +
      'A package on sale whose daily credit over its term would be more than its price times PACKAGE_CREDIT_MULTIPLE: a change that gives more ' +
      '(a lower price, more credit, a longer term, more stock) waits for a second admin; the name, image and text are saved, and the answer is 202 with `pendingApproval`.',
    body: updateProductBody, answers: [ok(productJson, 'Saved'), ok(productJson, 'Saved; the price, credit, term and stock wait for a second admin', 202)], errors: [409],
  },
  { method: 'DELETE', path: '/api/products/:id/delete', tag: 'Admin: catalogue', access: 'admin', stepUp: true, summary: 'Delete a package', answers: [message('Deleted')], errors: [409] },
  {
    method: 'GET', path: '/api/admin/products', tag: 'Admin: catalogue', access: 'admin', summary: 'Every package, drafts too, newest first',
    query: searchPageQuery('name'), answers: [page(productJson, PAGED)],
  },
  { method: 'GET', path: '/api/admin/products/:id', tag: 'Admin: catalogue', access: 'admin', summary: 'One package, draft or not', answers: [ok(productJson)] },
  {
    method: 'POST', path: '/api/admin/products/:id/publish', tag: 'Admin: catalogue', access: 'admin', stepUp: true, summary: 'Put a package on sale or take it off',
    description: 'A package whose daily credit over its term is more than its price times PACKAGE_CREDIT_MULTIPLE goes on sale once a second admin approves: 202 with `pendingApproval`, the package still a draft.',
    body: publishProductBody, answers: [ok(productJson, 'Done'), ok(productJson, 'Waiting for a second admin', 202)], errors: [409],
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
    method: 'POST', path: '/api/orders/:id/authorization', tag: 'Orders', access: 'user', summary: 'Pay in USDC with one signature (EIP-3009): the shop sends it and pays the gas',
    description:
      'The buyer signs `TransferWithAuthorization` in the token\'s EIP-712 domain (the quote\'s `signedTransfer`): from the wallet, to the order\'s deposit address, ' +
      'exactly the quote\'s amount, valid now until after a few minutes, a random nonce. Checked before anything is sent; each refusal says why. ' +
      'The relay then sends it; the order follows its usual states, and `authorization` on the order says where the shop\'s transaction is. ' +
      'A buyer whose signed payments failed (the USDC moved away before they were sent) is limited (429).',
    body: authorizationBody, answers: [ok(authorizationAcceptedJson, 'Accepted: the relay sends it', 202)], errors: [409, 429, 503],
  },
  {
    method: 'POST', path: '/api/orders/:id/overpayment', tag: 'Orders', access: 'user', summary: 'What to do with what a paid order received beyond its total: balance or refund',
    body: overpaymentBody, answers: [message('Done')], errors: [409, 503],
  },
  { method: 'POST', path: '/api/orders/:id/cancel', tag: 'Orders', access: 'user', summary: "Cancel the signed-in user's unpaid order", answers: [ok(cancelOrderJson)], errors: [409] },
];
