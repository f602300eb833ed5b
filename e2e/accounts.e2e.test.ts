import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { generate } from 'otplib';
import { waitFor } from '../scripts/testing/chain.ts';
import { scanQr } from './helpers.ts';
import { ADMIN, startShop, type Shop } from './shop.ts';
import { createUserInDb, registerThroughApi, setActiveBalance, signInThroughUi, toast, unique } from './journey-helpers.ts';
import { ANVIL_ACCOUNTS } from '../scripts/testing/chain.ts';
import { createProduct, priceToAnswer, Prisma, usdCentsToWei } from '@shop/core';
import { toCents } from '@shop/core/contract';

/**
 * Accounts a shopper can get back into and an admin console with a record of who did
 * what: a forgotten password reset from the e-mail that arrived, two-factor sign-in
 * enrolled by scanning the QR code on screen, an admin's passkey (Chromium's virtual
 * authenticator) and a second admin approving a large cashout payout, and the audit log
 * showing all of it, whose chain the reconciler checks.
 */
let shop: Shop;
beforeAll(async () => {
  shop = await startShop();
});
afterAll(async () => {
  await shop?.close();
});


describe('a shopper who forgot their password', () => {
  it('asks for a link on the sign-in page, opens it from the e-mail, sets a new password and signs in with it; the link works once', async () => {
    const user = { name: 'Forgetful Fay', email: `${unique('fay')}@example.com`, password: 'old-password-1' };
    await registerThroughApi(shop, user);
    const page = await shop.newPage();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Forgot password' }).waitFor();
    await page.getByLabel('Email Address').fill(user.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByRole('status').getByText('If an account uses this e-mail, a link to set a new password is on its way.', { exact: false }).waitFor();
    await shop.screenshot(page, '70-forgot-password-sent');

    await waitFor('the reset e-mail', async () => shop.smtp.messages.some((m) => m.subject === 'Set a new password' && (m.to && 'text' in m.to ? m.to.text : '') === user.email));
    const mail = shop.smtp.messages.find((m) => m.subject === 'Set a new password' && (m.to && 'text' in m.to ? m.to.text : '') === user.email)!;
    const link = new URL(/https?:\/\/\S+\/reset-password\?token=\S+/.exec(mail.text ?? '')![0]);
    // The database holds only the token's hash once the e-mail is out.
    const token = link.searchParams.get('token')!;
    await waitFor('the sealed token to be erased', async () => (await shop.db.passwordReset.findFirst({ where: { sealedToken: { not: null }, user: { email: user.email } } })) === null);
    expect(JSON.stringify(await shop.db.passwordReset.findMany({ where: { user: { email: user.email } } }))).not.toContain(token);

    await page.goto(link.pathname + link.search);
    await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
    await page.getByLabel('New password', { exact: true }).fill('new-password-22');
    await page.getByLabel('Confirm new password').fill('new-password-22');
    await shop.screenshot(page, '71-reset-password');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('status').getByText('Your password was changed. Sign in with the new one.').waitFor();
    await waitFor('the change notice', async () => shop.smtp.messages.some((m) => m.subject === 'Your password was changed' && (m.to && 'text' in m.to ? m.to.text : '') === user.email));

    await signInThroughUi(page, user.email, 'new-password-22', '/profile');

    // The same link again: it says so as it opens, with no form to fill in.
    const again = await shop.newPage();
    await again.goto(link.pathname + link.search);
    await again.getByText('This reset link has expired or was already used. Ask for a new one.').waitFor();
    expect(await again.getByLabel('New password', { exact: true }).count()).toBe(0);
    await shop.screenshot(again, '72-reset-link-used');
  });
});

describe('two-factor sign-in', () => {
  it('a user scans the QR code with an authenticator, turns it on, and then signs in with a code from it', async () => {
    const user = { name: 'Careful Cleo', email: `${unique('cleo')}@example.com`, password: 'cleo-password-1' };
    await registerThroughApi(shop, user);
    const page = await shop.newPage({ viewport: { width: 390, height: 844 } });
    await signInThroughUi(page, user.email, user.password, '/profile/security');
    await page.getByRole('heading', { name: 'Security' }).waitFor();
    await page.getByRole('form', { name: 'Set up an authenticator app' }).getByLabel('Your password').fill(user.password);
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const otpauth = await scanQr(page, 'QR code for your authenticator app');
    await shop.screenshot(page, '73-totp-enrol');
    const url = new URL(otpauth);
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe(`/ETH Shop:${user.email}`);
    const secret = url.searchParams.get('secret')!;
    expect(await page.getByTestId('totp-secret').innerText()).toBe(secret);

    await page.getByLabel('Code from the app').fill(await generate({ secret }));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await expect.poll(() => codes.count()).toBe(10);
    expect(await codes.first().innerText()).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    await shop.screenshot(page, '74-totp-recovery-codes');

    // Signed out, the password alone is not enough: the form asks for the code.
    await page.context().clearCookies();
    await page.evaluate(() => localStorage.clear());
    await page.goto('/login?redirect=%2Fprofile');
    await page.getByLabel('Email Address').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    const codeField = page.getByLabel('Authentication code');
    await codeField.waitFor();
    expect(page.url()).toMatch(/\/login/);
    await codeField.fill('000000');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.locator('[data-sonner-toast]').filter({ hasText: 'That code is not right.' }).first().waitFor();
    await shop.screenshot(page, '75-totp-sign-in-code');
    // The code of the next 30-second step (the enrolment used this one's).
    await codeField.fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((u) => u.pathname === '/profile');
  });
});

describe('an admin with a passkey', () => {
  const grace = { name: 'Grace Second', email: `${unique('grace')}@example.com`, password: 'grace-password-1' };
  let gracePage: Page;

  it('enrols a passkey with the browser\'s authenticator and signs in with it', async () => {
    await createUserInDb(shop, { ...grace, isAdmin: true });
    gracePage = await shop.newPage({ localhost: true });
    // Chromium's virtual authenticator: a platform passkey that answers without a touch.
    const cdp = await gracePage.context().newCDPSession(gracePage);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    await signInThroughUi(gracePage, grace.email, grace.password, '/profile/security');
    await gracePage.getByRole('heading', { name: 'Security' }).waitFor();
    const form = gracePage.getByRole('form', { name: 'Add a passkey' });
    await form.getByLabel('Name it').fill('Grace laptop');
    await form.getByLabel('Your password').fill(grace.password);
    await form.getByRole('button', { name: 'Add a passkey' }).click();
    await gracePage.getByRole('list', { name: 'Your passkeys' }).getByText('Grace laptop').waitFor();
    await expect.poll(() => gracePage.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').count()).toBe(10);
    await shop.screenshot(gracePage, '78-passkey-enrolled');
    const stored = await shop.db.passkey.findMany({ where: { user: { email: grace.email } } });
    expect(stored).toHaveLength(1);

    // Signed out: the password, then the passkey.
    await gracePage.context().clearCookies();
    await gracePage.evaluate(() => localStorage.clear());
    await gracePage.goto('/login?redirect=%2Fadmin%2Fapprovals');
    await gracePage.getByLabel('Email Address').fill(grace.email);
    await gracePage.getByLabel('Password').fill(grace.password);
    await gracePage.getByRole('button', { name: 'Sign In' }).click();
    const usePasskey = gracePage.getByRole('button', { name: 'Use your passkey' });
    await usePasskey.waitFor();
    await shop.screenshot(gracePage, '79-passkey-sign-in');
    await usePasskey.click();
    await gracePage.waitForURL((u) => u.pathname === '/admin/approvals');
    const login = await shop.db.auditEntry.findFirstOrThrow({ where: { action: 'user.login', actorEmail: grace.email }, orderBy: { seq: 'desc' } });
    expect(login.after).toEqual({ secondFactor: 'passkey' });
    expect((await shop.db.passkey.findFirstOrThrow({ where: { id: stored[0]!.id } })).counter).toBeGreaterThan(stored[0]!.counter);
  });

  it('approves a large cashout payout the first admin asked about; only then can it be marked paid, and the worker pays it', async () => {
    const buyer = { name: 'Big Cashout', email: `${unique('big')}@example.com`, password: 'buyer-password-1' };
    const { id: buyerId, client } = await registerThroughApi(shop, buyer);
    await setActiveBalance(shop, buyerId, '800.00');
    const wallet = ANVIL_ACCOUNTS[6];
    expect((await client.request('POST', '/api/users/cashout', { wallet })).status).toBe(200);
    const cashout = await shop.db.cashoutRequest.findFirstOrThrow({ where: { userId: buyerId } });

    // The first admin: a payout worth $800 needs a second admin before the ETH is sent.
    const admin = await shop.newPage();
    await signInThroughUi(admin, ADMIN.email, ADMIN.password, '/admin/cashouts');
    const row = admin.getByRole('table', { name: 'Cashout requests' }).getByRole('row').filter({ hasText: buyer.email });
    await row.getByText('Needs a second admin').waitFor();
    expect(await row.getByRole('button', { name: 'Mark Paid' }).count()).toBe(0);
    // Asking says why: the reason goes with the request to the second admin.
    await row.getByRole('button', { name: 'Ask approval' }).click();
    const ask = admin.getByRole('dialog', { name: 'Ask a second admin to approve this cashout' });
    await ask.getByLabel('Reason').fill('Regular buyer; the wallet was confirmed by phone');
    await shop.screenshot(admin, '80a-ask-approval-reason');
    await ask.getByRole('button', { name: 'Ask approval' }).click();
    await row.getByText("Awaiting a second admin's approval").waitFor();
    await shop.screenshot(admin, '80-cashout-awaiting-approval');

    // Grace, signed in with her passkey minutes ago, approves it on the Approvals page.
    await gracePage.goto('/admin/approvals');
    const waiting = gracePage.getByRole('table').getByRole('row').filter({ hasText: buyer.email });
    await waiting.getByText('Cashout payout').waitFor();
    await waiting.getByRole('cell', { name: 'USD $800.00', exact: true }).waitFor();
    await waiting.getByText('Regular buyer; the wallet was confirmed by phone').waitFor();
    await shop.screenshot(gracePage, '81-approvals-page');
    // Approving asks first, saying what it lets happen and why it was asked.
    await waiting.getByRole('button', { name: 'Approve' }).click();
    const confirm = gracePage.getByRole('alertdialog', { name: 'Approve this request?' });
    await confirm
      .getByText(`The cashout of USD $800.00 to ${wallet} / ${buyer.email.toLowerCase()} may then be sent and marked paid. Asked by ${ADMIN.email}: Regular buyer; the wallet was confirmed by phone.`)
      .waitFor();
    await shop.screenshot(gracePage, '81a-approve-confirm');
    await gracePage.setViewportSize({ width: 390, height: 844 });
    await shop.screenshot(gracePage, '81b-approve-confirm-phone');
    await gracePage.setViewportSize({ width: 1280, height: 900 });
    await confirm.getByRole('button', { name: 'Approve' }).click();
    await toast(gracePage, 'Approved. The payout can be sent and marked paid.').waitFor();

    // The first admin sends it and gives the hash; the worker verifies it on chain.
    await admin.reload();
    const approvedRow = admin.getByRole('table', { name: 'Cashout requests' }).getByRole('row').filter({ hasText: buyer.email });
    await approvedRow.getByRole('button', { name: 'Mark Paid' }).click();
    const expected = usdCentsToWei(toCents(cashout.amountUsd.toFixed(2)), priceToAnswer(cashout.ethUsd!.toFixed(8)));
    const hash = await shop.chain.sendAndWait(ANVIL_ACCOUNTS[5], wallet, expected);
    await approvedRow.getByRole('textbox', { name: 'Payout tx hash' }).fill(hash);
    await approvedRow.getByRole('button', { name: 'Save' }).click();
    await waitFor('the cashout PAID', async () => (await shop.db.cashoutRequest.findUniqueOrThrow({ where: { id: cashout.id } })).status === 'PAID');
    const decided = await shop.db.auditEntry.findMany({ where: { subjectId: cashout.id, action: { startsWith: 'approval.' } }, orderBy: { seq: 'asc' } });
    expect(decided.map((e) => [e.action, e.actorEmail])).toEqual([
      ['approval.requested', ADMIN.email],
      ['approval.approved', grace.email.toLowerCase()],
    ]);
  });

  it("publishing a package that pays more than it costs asks why from the Product List, and the second admin reads it", async () => {
    const name = `Penny ${unique('pkg')}`;
    // Created as the shop creates one, its stock through the stock log.
    const draft = await createProduct(shop.db, {
      name, image: '/images/sampler.svg', description: 'A cent for a lot', price: new Prisma.Decimal('0.01'), dailyCredit: new Prisma.Decimal('499.00'), durationDays: 30, countInStock: 3, publishedAt: null,
    });
    const admin = await shop.newPage();
    await signInThroughUi(admin, ADMIN.email, ADMIN.password, '/admin/productlist');
    await admin.getByRole('button', { name: `Publish ${name}` }).click();
    const dialog = admin.getByRole('dialog', { name: `Publish ${name}?` });
    await dialog.getByText('It pays USD $14970.00 over its 30-day term for USD $0.01, so it goes on sale once a second admin approves.').waitFor();
    await dialog.getByRole('textbox', { name: 'Reason for a second admin' }).fill('Launch promotion for the first ten buyers');
    await shop.screenshot(admin, '82-publish-reason');
    await admin.setViewportSize({ width: 390, height: 844 });
    await shop.screenshot(admin, '82a-publish-reason-phone');
    await admin.setViewportSize({ width: 1280, height: 900 });
    await dialog.getByRole('button', { name: 'Ask to publish' }).click();
    await toast(admin, `${name} pays more than it costs. It goes on sale once a second admin approves.`).waitFor();
    expect((await shop.db.product.findUniqueOrThrow({ where: { id: draft.id } })).publishedAt).toBeNull();

    await gracePage.goto('/admin/approvals');
    const waiting = gracePage.getByRole('table').getByRole('row').filter({ hasText: name });
    await waiting.getByText('Launch promotion for the first ten buyers').waitFor();
    await shop.screenshot(gracePage, '83-approvals-package-reason');
  });
});

describe('the audit log', () => {
  it('shows the admin what happened, and a row changed by hand in the database is reported by the reconciler', async () => {
    const page = await shop.newPage();
    await signInThroughUi(page, ADMIN.email, ADMIN.password, '/admin/audit');
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    const table = page.getByRole('table');
    for (const action of ['user.password_reset', '2fa.totp_enabled', '2fa.passkey_added', 'approval.approved', 'user.login_failed']) await table.getByText(action, { exact: true }).first().waitFor();
    await table.getByText('secondFactor').first().waitFor();
    await shop.screenshot(page, '76-admin-audit-log');
    await page.getByLabel('Action').selectOption('2fa.totp_enabled');
    await page.waitForURL(/action=2fa.totp_enabled/);
    await expect.poll(() => table.getByRole('row').count()).toBe(2);

    // Someone with the database's keys edits an entry, past its triggers.
    const entry = await shop.db.auditEntry.findFirstOrThrow({ where: { action: '2fa.totp_enabled' } });
    const tamper = (actorEmail: string | null) =>
      shop.db.$transaction(async (tx) => {
        await tx.$executeRawUnsafe('SET LOCAL session_replication_role = replica');
        await tx.$executeRaw`UPDATE "AuditEntry" SET "actorEmail" = ${actorEmail} WHERE "seq" = ${entry.seq}`;
      });
    await tamper('someone-else@example.com');
    await page.goto('/admin/reconciliation');
    await page.getByRole('button', { name: 'Check now' }).click();
    await page.getByText(`Audit entry ${entry.seq} was changed after it was written (its hash differs)`).waitFor({ timeout: 60_000 });
    await shop.screenshot(page, '77-reconciler-audit-chain');
    // Put back, so the books of the remaining journeys reconcile.
    await tamper(entry.actorEmail);
  });
});
