// A shop's finished past, written straight into a test database: paid orders whose receipt
// went out, expired ones and late ones whose stock went back, counted and rejected
// transfers, paid cashouts and refunds and their accepted payout checks, delivered and
// failed webhooks with their attempts, security e-mails sent, sessions long over.
// None of it is work: a query over open work should not read it.
import pg from 'pg';

export async function seedHistory(url: string, rows = 20_000): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query(`
      INSERT INTO "User" ("id", "name", "email", "passwordHash", "referralCode", "updatedAt")
      VALUES ('00000000-0000-4000-8000-00000000a11c', 'History', 'history@example.com', 'x', 'history-user', now())`);
    const user = `'00000000-0000-4000-8000-00000000a11c'::uuid`;
    const at = (days = 700) => `now() - interval '${days} days' + g * (interval '${days - 30} days' / ${rows})`;
    await client.query(`
      INSERT INTO "Product" ("id", "name", "image", "description", "price", "updatedAt")
      VALUES ('00000000-0000-4000-8000-00000000a11d', 'History', '', '', 10, now())`);
    await client.query(`
      INSERT INTO "Order" ("id", "userId", "status", "itemsPrice", "totalPrice", "createdAt", "updatedAt", "paidAt", "receiptSentAt", "paymentDeadline", "stockReserved", "paidVersion")
      SELECT gen_random_uuid(), ${user}, CASE WHEN g % 10 = 0 THEN 'EXPIRED'::"OrderStatus" WHEN g % 10 = 5 THEN 'LATE' ELSE 'PAID' END, 10, 10, ${at()}, ${at()},
        CASE WHEN g % 5 = 0 THEN NULL ELSE ${at()} END, CASE WHEN g % 5 = 0 THEN NULL ELSE ${at()} END, ${at()}, false, 1
      FROM generate_series(1, ${rows}) g`);
    await client.query(`
      INSERT INTO "OrderItem" ("id", "orderId", "productId", "name", "image", "price", "qty", "dailyCredit", "durationDays", "creditEndsAt")
      SELECT gen_random_uuid(), o."id", '00000000-0000-4000-8000-00000000a11d', 'History', '', 10, 1, 1, 30,
        CASE WHEN o."status" = 'PAID' THEN o."paidAt" + interval '30 days' END
      FROM "Order" o WHERE o."userId" = ${user}`);
    await client.query(`
      INSERT INTO "Payment" ("id", "txHash", "source", "status", "amount", "usdValue", "blockNumber", "createdAt", "updatedAt")
      SELECT gen_random_uuid(), '0xe' || lpad(to_hex(g), 63, '0'), 'INDEXED', CASE WHEN g % 10 = 0 THEN 'REJECTED'::"PaymentStatus" ELSE 'COUNTED' END,
        1, 10, g, ${at()}, ${at()}
      FROM generate_series(1, ${rows}) g`);
    await client.query(`
      INSERT INTO "CashoutRequest" ("id", "userId", "wallet", "amountUsd", "status", "paidAt", "paidNoticeSentAt", "createdAt", "updatedAt")
      SELECT gen_random_uuid(), ${user}, '0x0000000000000000000000000000000000000001', 25, 'PAID', ${at()}, ${at()}, ${at()}, ${at()}
      FROM generate_series(1, ${rows}) g`);
    await client.query(`
      INSERT INTO "Refund" ("id", "source", "userId", "wallet", "walletSource", "amount", "status", "paidAt", "paidNoticeSentAt", "createdAt", "updatedAt")
      SELECT gen_random_uuid(), 'OVERPAYMENT', ${user}, '0x0000000000000000000000000000000000000001', 'sender', 1, 'PAID', ${at()}, ${at()}, ${at()}, ${at()}
      FROM generate_series(1, ${rows}) g`);
    await client.query(`
      INSERT INTO "PayoutCheck" ("id", "txHash", "cashoutId", "wallet", "expectedAmount", "status", "createdAt", "updatedAt")
      SELECT gen_random_uuid(), '0xc' || lpad(to_hex(row_number() OVER ()), 63, '0'), c."id", c."wallet", 1, 'ACCEPTED', c."createdAt", c."createdAt"
      FROM "CashoutRequest" c WHERE c."userId" = ${user}`);
    await client.query(`
      INSERT INTO "WebhookEndpoint" ("id", "url", "secret", "events", "updatedAt")
      VALUES ('00000000-0000-4000-8000-00000000a11e', 'https://history.example.com/', 'whsec_history', ARRAY['order.paid'], now())`);
    await client.query(`
      INSERT INTO "WebhookEvent" ("id", "type", "subject", "payload", "createdAt")
      SELECT 'msg_history' || g, 'order.paid', 'order:history-' || g, '{}'::jsonb, ${at()} FROM generate_series(1, ${rows}) g`);
    await client.query(`
      INSERT INTO "WebhookDelivery" ("id", "eventId", "endpointId", "subject", "seq", "status", "attempts", "deliveredAt", "createdAt", "updatedAt")
      SELECT gen_random_uuid(), e."id", '00000000-0000-4000-8000-00000000a11e', e."subject", e."seq",
        CASE WHEN e."seq" % 200 = 0 THEN 'FAILED'::"WebhookDeliveryStatus" ELSE 'DELIVERED' END, 1, e."createdAt", e."createdAt", e."createdAt"
      FROM "WebhookEvent" e WHERE e."id" LIKE 'msg\\_history%'`);
    await client.query(`
      INSERT INTO "WebhookAttempt" ("id", "deliveryId", "at", "statusCode", "durationMs")
      SELECT gen_random_uuid(), d."id", d."createdAt", 200, 10 FROM "WebhookDelivery" d WHERE d."endpointId" = '00000000-0000-4000-8000-00000000a11e'`);
    await client.query(`
      INSERT INTO "SecurityNotice" ("id", "userId", "kind", "email", "createdAt", "sentAt")
      SELECT gen_random_uuid(), ${user}, 'CASHOUT_REQUESTED', 'history@example.com', ${at()}, ${at()} FROM generate_series(1, ${rows}) g`);
    await client.query(`
      INSERT INTO "Session" ("id", "userId", "createdAt", "expiresAt", "revokedAt")
      SELECT gen_random_uuid(), ${user}, ${at()}, ${at()} + interval '30 days', CASE WHEN g % 3 = 0 THEN ${at()} + interval '1 day' END
      FROM generate_series(1, ${rows}) g`);
    await client.query('COMMIT');
    await client.query('ANALYZE');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    await client.end();
  }
}
