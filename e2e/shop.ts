import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createRuntime, type Runtime } from '@shop/core';
import { createApp } from '../api/src/app.ts';
import { seed } from '../prisma/seed.ts';
import { createTestEnv, type TestEnv } from '../scripts/testing/test-env.ts';
import { anvilDriver } from '../scripts/testing/chain.ts';
import { expectBooksBalanced } from '../scripts/testing/books.ts';
import { freePort, startSmtpServer } from '../scripts/testing/smtp.ts';
import { REPO_ROOT } from '../scripts/lib/paths.ts';
import { DEV_RELAY_PRIVATE_KEY, DEV_SWEEPER_PRIVATE_KEY } from '../scripts/lib/dev-chain.ts';
import { processors } from '../worker/src/processors/index.ts';
import { closeMailer } from '../worker/src/processors/email.ts';
import { scheduleRecurringJobs } from '../worker/src/schedules.ts';
import { startWorkers } from '../worker/src/worker-manager.ts';
import { WALLET_RPC_BINDING, walletInitScript, type WalletOptions } from './wallet.ts';

export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'test-results', 'screenshots');
export const ADMIN = { email: 'admin@example.com', password: 'admin12345' };
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The whole shop for browser journeys: its own database, Redis prefix, anvil with the
 * price feed, SMTP server, the real api serving the built web app, the real worker
 * processors and schedules, and headless Chromium.
 *
 * At close it fails the test file on what a journey may not leave behind: a broken
 * Content-Security-Policy, a serious or critical accessibility violation on any page
 * checked (every screenshot is checked), or books that do not reconcile.
 */
export async function startShop(opts: { reconcileSkip?: string[]; env?: Record<string, string> } = {}) {
  const smtpPort = await freePort();
  const smtp = await startSmtpServer(smtpPort);
  const env: TestEnv = await createTestEnv({
    chain: true,
    ethUsd: '3000',
    env: {
      SERVE_WEB: 'true',
      // E2E_WEB_DIST_DIR: a build of one's own, while others in the same checkout rebuild web/dist.
      WEB_DIST_DIR: process.env.E2E_WEB_DIST_DIR ?? path.join(REPO_ROOT, 'web/dist'),
      SMTP_URL: smtp.url,
      OPERATOR_EMAIL: 'ops@example.com',
      INDEXER_INTERVAL_MS: '500',
      MAINTENANCE_INTERVAL_MS: '5000',
      // Retries and payout re-reads at a browser test's pace (production: 15 s).
      WEBHOOK_RETRY_BASE_MS: '500',
      PAYOUT_RECHECK_MS: '500',
      REFERRAL_REWARD_PERCENT: '10',
      // The deposit sweeper pays its gas as npm start's does, from anvil's account #8.
      SWEEPER_PRIVATE_KEY: DEV_SWEEPER_PRIVATE_KEY,
      // Buyers' signed USDC payments are sent as npm start's are, from anvil's account #9,
      // and looked at again at a browser test's pace (production: 10 s).
      RELAY_PRIVATE_KEY: DEV_RELAY_PRIVATE_KEY,
      RELAY_RETRY_MS: '500',
      ...opts.env,
    },
  });
  await seed(env.runtime.db, ADMIN);
  const app = createApp(env.runtime);
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const address = server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const worker: Runtime = createRuntime(env.config, 'worker');
  const workers = startWorkers(worker, processors);
  await scheduleRecurringJobs(worker);
  const browser: Browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const chain = anvilDriver(env.anvil!.rpcUrl);
  const contexts: BrowserContext[] = [];
  // Every page's Content-Security-Policy violations: the built app must run under its CSP.
  const cspViolations: string[] = [];
  const isCspViolation = (text: string) => /Content Security Policy|Refused to (load|execute|connect|apply|frame|evaluate)/i.test(text);
  // A page drawn on the server that React could not take over as drawn (a hydration
  // mismatch: production React's errors 418, 419, 422, 423 and 425 and their words).
  const hydrationErrors: string[] = [];
  const isHydrationError = (text: string) => /Minified React error #4(18|19|22|23|25)\b|hydrat(ion|ed|ing)\b.*(match|fail|error)/i.test(text);

  async function newPage(
    opts: {
      wallet?: Partial<WalletOptions> | false;
      viewport?: { width: number; height: number };
      userAgent?: string;
      expectCspViolations?: boolean;
      /** Open the shop as http://localhost:PORT (a name, as passkeys need: an IP address cannot be a WebAuthn relying party). */
      localhost?: boolean;
      /** The browser's language (its Accept-Language and navigator.language): 'az-AZ', 'ru-RU'. */
      locale?: string;
    } = {},
  ): Promise<Page> {
    const context = await browser.newContext({
      baseURL: opts.localhost ? baseUrl.replace('127.0.0.1', 'localhost') : baseUrl,
      // Toasts at rest as soon as they are drawn and gone when put away (sonner turns its
      // transitions off for a reader who asks for less motion): axe then never reads one
      // mid-fade, its text blended with its background (two journeys caught one so).
      reducedMotion: 'reduce',
      viewport: opts.viewport ?? { width: 1280, height: 900 },
      ...(opts.userAgent ? { userAgent: opts.userAgent } : {}),
      ...(opts.locale ? { locale: opts.locale } : {}),
    });
    contexts.push(context);
    if (opts.wallet !== false && opts.wallet !== undefined) {
      const rpcUrl = env.anvil!.rpcUrl;
      await context.exposeFunction(WALLET_RPC_BINDING, async (body: string) => {
        const res = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        return res.text();
      });
      await context.addInitScript(walletInitScript({ rpcUrl, account: opts.wallet.account ?? '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', ...opts.wallet }));
    }
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    page.on('console', (msg) => {
      if (msg.type() === 'error' && isHydrationError(msg.text())) hydrationErrors.push(`${page.url()}: ${msg.text()}`);
    });
    page.on('pageerror', (error) => {
      if (isHydrationError(error.message)) hydrationErrors.push(`${page.url()}: ${error.message}`);
    });
    // A page drawn on the server shows before its code runs: a journey acts on it once
    // React has taken it over (as a visitor would a moment later), never on the drawing.
    const goto = page.goto.bind(page);
    const reload = page.reload.bind(page);
    page.goto = async (...args: Parameters<Page['goto']>) => {
      const response = await goto(...args);
      await appRunning(page);
      return response;
    };
    page.reload = async (...args: Parameters<Page['reload']>) => {
      const response = await reload(...args);
      await appRunning(page);
      return response;
    };
    if (!opts.expectCspViolations) {
      page.on('console', (msg) => {
        if (isCspViolation(msg.text())) cspViolations.push(`${page.url()}: ${msg.text()}`);
      });
    }
    return page;
  }

  // What is on screen once it has settled: colours caught mid-transition (a toast fading in) are not what a reader sees.
  async function settled(page: Page): Promise<void> {
    // Two frames first: a transition that starts on the next style change (a toast being
    // shown or put away) is running by then, and waited for below.
    await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
    await page.evaluate(() =>
      Promise.all(
        document
          .getAnimations()
          .filter((a) => Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity))
          .map((a) => a.finished.catch(() => undefined)),
      ),
    );
    // A toast the Toaster drew late (it loads when the first toast is asked for) at rest:
    // sonner's fade-in ended, its text at the colour a reader sees.
    await page
      .waitForFunction(
        () =>
          Array.from(document.querySelectorAll<HTMLElement>('[data-sonner-toast]')).every(
            (toast) => toast.dataset.removed === 'true' || toast.dataset.visible === 'false' || (toast.dataset.mounted === 'true' && getComputedStyle(toast).opacity === '1'),
          ),
        undefined,
        { polling: 50, timeout: 10_000 },
      )
      .catch(() => undefined);
  }

  // Serious and critical accessibility violations, found by axe-core in the page.
  const a11yViolations: string[] = [];
  const a11yReported: string[] = [];
  async function checkA11y(page: Page, label: string, opts: { thirdParty?: boolean } = {}): Promise<void> {
    // A toast on screen is held while the pointer is on it (toasts pause on hover): it is
    // checked as it stands, never half faded out because its five seconds ran out mid-check.
    const toast = page.locator('[data-sonner-toast]').first();
    const holding = (await toast.count()) > 0 && (await toast.hover({ timeout: 2_000 }).then(() => true, () => false));
    await settled(page);
    // preload off: axe would fetch cross-origin stylesheets itself (the dashboard's fonts), which the CSP rightly refuses.
    const results = await new AxeBuilder({ page }).options({ preload: false }).analyze();
    if (holding) await page.mouse.move(0, 0);
    for (const v of results.violations) {
      if (v.impact !== 'serious' && v.impact !== 'critical') continue;
      const where = v.nodes.slice(0, 3).map((n) => `${n.target.join(' ')}${n.failureSummary ? ` (${n.failureSummary.replace(/\s+/g, ' ')})` : ''}`);
      const line = `${label} ${new URL(page.url()).pathname}: ${v.id} [${v.impact}] ${v.help}: ${where.join('; ')}`;
      (opts.thirdParty ? a11yReported : a11yViolations).push(line);
    }
  }

  /**
   * Saves a full-page screenshot and checks the page with axe. `thirdParty`: a screen the
   * shop serves but does not build (the queue dashboard): its findings are printed, not
   * failed on (docs/decisions.md).
   */
  async function screenshot(page: Page, name: string, opts: { thirdParty?: boolean } = {}): Promise<string> {
    const file = path.join(SCREENSHOT_DIR, `${name}.png`);
    await settled(page);
    await page.screenshot({ path: file, fullPage: true });
    await checkA11y(page, name, opts);
    return file;
  }

  return {
    env,
    db: env.runtime.db,
    baseUrl,
    chain,
    smtp,
    browser,
    newPage,
    screenshot,
    checkA11y,
    cspViolations,
    hydrationErrors,
    a11yViolations,
    async close() {
      for (const c of contexts) await c.close().catch(() => {});
      await browser.close().catch(() => {});
      await workers.close();
      closeMailer();
      await worker.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      // The books once nothing moves any more, while the database is still there.
      const books = await expectBooksBalanced(env.runtime, 'these browser journeys', { skip: opts.reconcileSkip }).then(
        () => undefined,
        (e: unknown) => e,
      );
      await env.close();
      await smtp.stop();
      if (a11yReported.length > 0) console.warn(`Accessibility findings on third-party screens (not failed on):\n${a11yReported.join('\n')}`);
      if (books) throw books;
      if (cspViolations.length > 0) {
        throw new Error(`The app broke its Content-Security-Policy ${cspViolations.length} time(s):\n${cspViolations.slice(0, 10).join('\n')}`);
      }
      if (hydrationErrors.length > 0) {
        throw new Error(`React could not hydrate a drawn page ${hydrationErrors.length} time(s):\n${hydrationErrors.slice(0, 10).join('\n')}`);
      }
      if (a11yViolations.length > 0) {
        throw new Error(`Accessibility: ${a11yViolations.length} serious or critical violation(s):\n${a11yViolations.slice(0, 20).join('\n')}`);
      }
    },
  };
}

export type Shop = Awaited<ReturnType<typeof startShop>>;

/**
 * Waits until the app runs the page: at once for a page the app draws itself, and for a
 * page drawn on the server until React has hydrated it (the layout marks <html>).
 */
export async function appRunning(page: Page): Promise<void> {
  await page.waitForFunction(() => !document.getElementById('shop-state') || document.documentElement.dataset.app === 'running');
}
