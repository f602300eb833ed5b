import { cancelLinkForMail, forgetCancelLinkToken, markNoticeSent, type Logger, type Mail, type Runtime } from '@shop/core';
import { formatTime } from '@shop/core/contract';

type Notice = NonNullable<Awaited<ReturnType<typeof readNotice>>>;
type Send = (mail: Mail) => Promise<{ messageId: string; file?: string }>;

function readNotice(runtime: Runtime, noticeId: string) {
  return runtime.db.securityNotice.findUnique({ where: { id: noticeId }, include: { user: { select: { name: true, deletedAt: true, referralCode: true } } } });
}

/**
 * A security e-mail (core/src/accounts/security-notices.ts) to the address the notice names: what
 * changed, when, and what to do if it was not the owner. A cashout to a wallet the account
 * was never paid to carries the link that cancels it (its token unsealed here and erased
 * once sent). Sent once: the notice is marked sent, and a rerun finds it so.
 */
export async function securityMail(runtime: Runtime, noticeId: string, io: { send: Send; site: string }, logger: Logger): Promise<unknown> {
  const notice = await readNotice(runtime, noticeId);
  if (!notice || notice.sentAt || notice.user.deletedAt) return { skipped: true };
  const mail =
    notice.kind === 'CASHOUT_REQUESTED'
      ? await cashoutMail(runtime, notice, io.site)
      : notice.kind === 'WELCOME' || notice.kind === 'REFERRAL_REWARD'
        ? { ...letter(runtime, notice, io.site), linkId: null }
        : { ...accountMail(notice, io.site), linkId: null };
  if (!mail) return { skipped: true };
  const sent = await io.send({ to: notice.email, subject: mail.subject, text: mail.text });
  await markNoticeSent(runtime.db, notice.id);
  if (mail.linkId) await forgetCancelLinkToken(runtime.db, mail.linkId);
  logger.info({ msg: 'security notice sent', notice_id: notice.id, kind: notice.kind, message_id: sent.messageId, file: sent.file });
  return { messageId: sent.messageId };
}

function notYou(site: string): string[] {
  return ['', `If this was not you, someone else can use your account: set a new password at once at ${site}/forgot-password, then check ${site}/profile/security.`];
}

/** A second factor added or removed, a new password, a new e-mail address. */
function accountMail(notice: Notice, site: string): { subject: string; text: string } {
  const detail = (notice.detail ?? {}) as { factor?: 'totp' | 'passkey'; name?: string; to?: string };
  const factor = detail.factor === 'passkey' ? `a passkey (${detail.name ?? 'unnamed'})` : 'an authenticator app';
  const at = formatTime(notice.createdAt);
  const [subject, line] =
    notice.kind === 'FACTOR_ADDED'
      ? [`Two-factor sign-in: ${factor} was added to your account`, `${factor[0]!.toUpperCase()}${factor.slice(1)} was added to the two-factor sign-in of your account at ${at}.`]
      : notice.kind === 'FACTOR_REMOVED'
        ? [`Two-factor sign-in: ${factor} was removed from your account`, `${factor[0]!.toUpperCase()}${factor.slice(1)} was removed from the two-factor sign-in of your account at ${at}.`]
        : notice.kind === 'PASSWORD_CHANGED'
          ? ['The password of your account was changed', `The password of your account was changed at ${at}, and its other sessions were signed out.`]
          : ['The e-mail address of your account was changed', `The e-mail address of your account was changed to ${detail.to ?? 'another address'} at ${at}: we will write there from now on.`];
  return { subject, text: [`Hello ${notice.user.name},`, '', line, ...notYou(site)].join('\n') };
}

/** The account's letters that are not about its security: the welcome, a referral reward credited. */
function letter(runtime: Runtime, notice: Notice, site: string): { subject: string; text: string } {
  const percent = runtime.config.referralRewardPercent;
  if (notice.kind === 'WELCOME') {
    return {
      subject: 'Welcome to ETH Shop',
      text: [
        `Hello ${notice.user.name},`,
        '',
        `Your account is ready. Choose a package at ${site}/ and pay for it in ETH from your wallet; its daily credit then adds to your balance, and your profile shows it: ${site}/profile`,
        '',
        `Your referral code is ${notice.user.referralCode}. Whoever registers with it earns you ${percent}% of each order they pay, added to your active balance.`,
        '',
        `If you did not open this account, tell us by replying to this e-mail.`,
      ].join('\n'),
    };
  }
  const detail = (notice.detail ?? {}) as { amount?: string; orderId?: string };
  // centsToString's two decimals, as the ledger credited it.
  const amount = `$${detail.amount ?? '0.00'}`;
  return {
    subject: `You earned a referral reward of ${amount}`,
    text: [
      `Hello ${notice.user.name},`,
      '',
      `Someone who registered with your referral code paid an order, and ${amount} (${percent}% of it) was added to your active balance at ${formatTime(notice.createdAt)}.`,
      `Your balance and its statement: ${site}/profile`,
    ].join('\n'),
  };
}

/** A cashout asked for: to a wallet the account was paid to before, or to a new one (held, with the link that cancels it). */
async function cashoutMail(runtime: Runtime, notice: Notice, site: string): Promise<{ subject: string; text: string; linkId: string | null } | null> {
  if (!notice.cashoutId) return null;
  const cashout = await runtime.db.cashoutRequest.findUnique({ where: { id: notice.cashoutId }, include: { cancelLink: { select: { id: true } } } });
  if (!cashout) return null;
  const amount = `$${cashout.amountUsd.toFixed(2)}`;
  const asked = `A cashout of ${amount} from your account to the wallet ${cashout.wallet} on ${runtime.config.network.name} was asked for at ${formatTime(cashout.createdAt)}.`;
  if (!cashout.cancelLink) {
    return { subject: `Cashout of ${amount} requested`, text: [`Hello ${notice.user.name},`, '', asked, 'Coins are sent to the wallet within 1-24 hours.', ...notYou(site)].join('\n'), linkId: null };
  }
  const link = await cancelLinkForMail(runtime.db, runtime.config, cashout.id);
  const wait = cashout.holdUntil
    ? `Your account has never been paid to this wallet, so the cashout waits until ${formatTime(cashout.holdUntil)} before it is paid.`
    : 'Your account has never been paid to this wallet.';
  const cancel = link
    ? [
        '',
        'If this was not you, open this link: it cancels every cashout of your account to this wallet that is still waiting (the amount comes back to your active balance), blocks the wallet for your account and signs your account out everywhere. Then set a new password.',
        '',
        `${site}/cashout/cancel?token=${encodeURIComponent(link.token)}`,
        '',
        `The link works once, until ${formatTime(link.expiresAt)}.`,
      ]
    : notYou(site);
  return { subject: `Cashout of ${amount} to a new wallet`, text: [`Hello ${notice.user.name},`, '', asked, wait, ...cancel].join('\n'), linkId: link?.id ?? null };
}
