import { z } from 'zod';
import { createDocument, type oas31, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponsesObject } from 'zod-openapi';
import * as contract from '@shop/core/contract';
import { MAX_PAGE_SIZE } from '@shop/core/contract/queries';
import { apiErrorJson, errorStatuses, OPERATIONS, pathSchema, type Operation } from '@shop/core/contract/operations';

/**
 * The api's OpenAPI 3.1 document, generated from the contract's zod schemas
 * (core/src/contract/operations.ts lists the operations) by zod-openapi: the schemas the
 * api validates with and the web app types with are the ones published here.
 */

const ERROR_MEANINGS: Record<number, string> = {
  400: 'Bad input: `message` says what to send; a validation error names each field in `errors`',
  401: 'Not signed in (or, for sign-in, bad credentials)',
  403: 'Not allowed: not an admin, an admin without two-factor sign-in (`twoFactorEnrolment`), or a fresh second factor needed (`stepUpRequired`)',
  404: 'Not found (also another user\'s order, and an id that is not a UUID)',
  409: 'Conflict with the current state: `message` says what changed or what to do',
  413: 'Too large',
  429: 'Too many requests: `message` says how long to wait',
  503: 'A dependency (database, Redis, the Ethereum node or the price feed) is down; try again',
};

/** Named schemas: each is a component the operations refer to, so a reader sees one `Order`, not forty copies. */
const COMPONENTS: Record<string, z.ZodType> = {
  Error: apiErrorJson,
  Message: contract.messageJson,
  User: contract.userJson,
  AdminUserListItem: contract.adminUserListItem,
  Person: contract.personJson,
  Passkey: contract.passkeyJson,
  TwoFactorStatus: contract.twoFactorStatus,
  Product: contract.productJson,
  Order: contract.orderJson,
  OrderItem: contract.orderItemJson,
  Quote: contract.quoteJson,
  Payment: contract.paymentJson,
  AdminOrder: contract.adminOrderJson,
  AdminOrderDetail: contract.adminOrderDetailJson,
  AdminPayment: contract.adminPaymentJson,
  Cashout: contract.cashoutJson,
  MyCashout: contract.myCashoutJson,
  StatementEntry: contract.statementEntryJson,
  Refund: contract.refundJson,
  PayoutCheck: contract.payoutCheckJson,
  PayoutApproval: contract.payoutApprovalJson,
  Overpayment: contract.overpaymentJson,
  OverpaidOrder: contract.overpaidOrderJson,
  Approval: contract.approvalJson,
  AuditEntry: contract.auditEntryJson,
  Reconciliation: contract.reconciliationJson,
  AdminOverview: contract.adminOverviewJson,
  WebhookEndpoint: contract.webhookEndpointJson,
  WebhookDelivery: contract.webhookDeliveryJson,
  Health: contract.healthJson,
  WebhookOrder: contract.webhookOrderData,
  WebhookCashout: contract.webhookCashoutData,
  WebhookRefund: contract.webhookRefundData,
  WebhookPayment: contract.webhookPaymentData,
};

const ACCESS_TEXT = { public: 'Anyone.', user: 'A signed-in user (the session cookie).', admin: 'A signed-in admin (rights read from the database on each request).' };

function accessText(op: Operation): string {
  const stepUp =
    op.stepUp === undefined ? ''
    : ` With two-factor sign-in on, a second factor given in the last 10 minutes${op.stepUp === true ? '' : ` ${op.stepUp}`} (POST /api/users/2fa/step-up; 403 \`stepUpRequired\` otherwise).`;
  return `**Who may call it:** ${ACCESS_TEXT[op.access]}${stepUp}`;
}

const LINK_HEADER = z.string().meta({ description: 'The next page: `<path?cursor=...>; rel="next"`; absent on the last page.' });

function operationObject(op: Operation): ZodOpenApiOperationObject {
  const responses: ZodOpenApiResponsesObject = {};
  for (const answer of op.answers) {
    responses[`${answer.status}` as `2${string}`] = {
      description: answer.description,
      content: answer.schema ? { 'application/json': { schema: answer.schema } } : { [answer.contentType ?? 'application/octet-stream']: {} },
      ...(answer.paged ? { headers: z.object({ Link: LINK_HEADER.optional() }) } : {}),
    };
  }
  for (const status of errorStatuses(op)) {
    responses[`${status}` as `4${string}`] = { description: ERROR_MEANINGS[status] ?? 'Error', content: { 'application/json': { schema: apiErrorJson } } };
  }
  const path = pathSchema(op);
  return {
    operationId: `${op.method.toLowerCase()}${op.path.replace(/\.csv$/, 'Csv').replace(/[^A-Za-z0-9]+(\w)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
    tags: [op.tag],
    summary: op.summary,
    description: [op.description, accessText(op)].filter(Boolean).join('\n\n'),
    ...(op.access === 'public' ? { security: [] } : { security: [{ session: [] }] }),
    'x-access': op.access,
    ...(op.stepUp ? { 'x-step-up': op.stepUp === true ? 'always' : op.stepUp } : {}),
    ...(path || op.query ? { requestParams: { ...(path ? { path } : {}), ...(op.query ? { query: op.query } : {}) } } : {}),
    ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: op.body } } } } : {}),
    ...(op.multipart
      ? {
          requestBody: {
            required: true,
            content: {
              'multipart/form-data': {
                schema: { type: 'object', required: Object.keys(op.multipart), properties: Object.fromEntries(Object.entries(op.multipart).map(([k, d]) => [k, { type: 'string', format: 'binary', description: d }])) },
              },
            },
          },
        }
      : {}),
    responses,
  };
}

const signatureHeaders = z.object({
  'webhook-id': z.string().meta({ description: contract.WEBHOOK_HEADERS['webhook-id'], example: 'msg_2b7c0e5e8f0a4c6e9d1b3a5c7e9f1a2b' }),
  'webhook-timestamp': z.string().regex(/^\d+$/).meta({ description: contract.WEBHOOK_HEADERS['webhook-timestamp'], example: '1767225600' }),
  'webhook-signature': z.string().meta({ description: contract.WEBHOOK_HEADERS['webhook-signature'], example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=' }),
});

const EVENT_MEANINGS: Record<contract.WebhookEventType, string> = {
  'order.paid': 'An order became paid (its transfers are confirmed and cover the total).',
  'order.underpaid': 'Confirmed transfers for an order fall short of its total.',
  'order.late': 'A transfer for an order arrived after its quote expired.',
  'order.expired': 'An unpaid order passed its payment window; its stock is released.',
  'order.cancelled': 'The buyer cancelled an unpaid order.',
  'payment.unresolved': 'A transfer the shop could not attribute to an order: an admin must assign or refund it.',
  'cashout.requested': 'A user asked for a cashout.',
  'cashout.paid': 'A cashout payout was verified on chain.',
  'refund.paid': 'A refund payout was verified on chain.',
};

function webhookPaths(): ZodOpenApiPathsObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const type of contract.WEBHOOK_EVENT_TYPES) {
    paths[type] = {
      post: {
        operationId: `webhook${type.replace(/(^|\.)(\w)/g, (_m, _d: string, c: string) => c.toUpperCase())}`,
        tags: ['Webhooks'],
        summary: type,
        description:
          `${EVENT_MEANINGS[type]}\n\nPosted to every enabled endpoint that chose \`${type}\`, signed as Standard Webhooks says: HMAC-SHA256 over ` +
          '`webhook-id.webhook-timestamp.body` with the endpoint\'s secret. Verify before trusting the body, drop a `webhook-id` seen before, and answer 2xx; ' +
          'anything else is retried with exponential back-off (about 2.8 days), then marked failed.',
        requestParams: { header: signatureHeaders },
        requestBody: { required: true, content: { 'application/json': { schema: contract.webhookEventBody(type) } } },
        responses: {
          '2XX': { description: 'Received (any 2xx): not sent again' },
          default: { description: 'Anything else, or no answer within WEBHOOK_TIMEOUT_MS: retried' },
        },
      },
    };
  }
  return paths;
}

const INTRODUCTION = `The ETH Shop api: JSON in and out, resources carry \`_id\` (a UUID string).

- **Money**: USD amounts in answers are JSON numbers with at most 2 decimals (statement, overview and webhook amounts are exact decimal strings); requests accept a number or a numeric string. Wei amounts are decimal strings.
- **Errors**: every status from 400 is \`{ "message": string }\` (schema \`Error\`); validation errors add \`errors: [{path, message}]\`. No stack traces leave the server.
- **Sessions**: a JWT in the httpOnly, SameSite=Lax cookie \`jwt\`, set by register and sign-in. Admin rights are read from the database on each request.
- **Second factor**: money actions need a second factor given in the last 10 minutes when the user has two-factor sign-in on (403 with \`stepUpRequired\`; confirm with POST /api/users/2fa/step-up and retry).
- **Lists** are paged by \`limit\` (at most ${MAX_PAGE_SIZE}) and an opaque \`cursor\`; the next page is in the \`Link\` header.
- **Webhooks** (below): the events the shop posts to the endpoints admins register, and how to verify their signature.`;

let cached: oas31.OpenAPIObject | undefined;

export function openApiDocument(): oas31.OpenAPIObject {
  if (cached) return cached;
  const paths: ZodOpenApiPathsObject = {};
  for (const op of OPERATIONS) {
    const key = op.path.replace(/:(\w+)/g, '{$1}');
    paths[key] = { ...paths[key], [op.method.toLowerCase()]: operationObject(op) };
  }
  const tags = [...new Set(OPERATIONS.map((op) => op.tag)), 'Webhooks'].map((name) => ({ name }));
  cached = createDocument({
    openapi: '3.1.0',
    info: { title: 'ETH Shop API', version: '1.0.0', description: INTRODUCTION },
    tags,
    paths,
    webhooks: webhookPaths(),
    components: {
      schemas: COMPONENTS,
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'jwt', description: 'The session cookie register and sign-in set (httpOnly, SameSite=Lax).' },
      },
    },
  }, {
    // An e-mail's example reads as one (the renderer would otherwise make one up from the pattern).
    override: ({ jsonSchema }) => {
      if (jsonSchema.format === 'email') jsonSchema.examples = ['buyer@example.com'];
    },
  });
  cached = tidyComponents(cached);
  return cached;
}

/**
 * zod-openapi renders a named schema used in answers as `<Name>Output` (answers list
 * every field and nothing more) and keeps an input rendering under `<Name>` even where no
 * request uses it: such a `<Name>` is dropped and `<Name>Output` takes its name.
 */
function tidyComponents(doc: oas31.OpenAPIObject): oas31.OpenAPIObject {
  const schemas = doc.components?.schemas ?? {};
  let text = JSON.stringify(doc);
  for (const name of Object.keys(schemas)) {
    const base = name.replace(/Output$/, '');
    if (base === name || !(base in schemas) || text.includes(`"#/components/schemas/${base}"`)) continue;
    const parsed = JSON.parse(text) as oas31.OpenAPIObject;
    const all = parsed.components!.schemas!;
    all[base] = all[name]!;
    delete all[name];
    text = JSON.stringify(parsed).replaceAll(`"#/components/schemas/${name}"`, `"#/components/schemas/${base}"`);
  }
  return JSON.parse(text) as oas31.OpenAPIObject;
}
