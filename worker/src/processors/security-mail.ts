import { cancelLinkForMail, forgetCancelLinkToken, markNoticeSent, type Logger, type Mail, type Runtime } from '@shop/core';
import { mailFor, type Factor, type MailWords } from '../mail/index.ts';

type Notice = NonNullable<Awaited<ReturnType<typeof readNotice>>>;
type Send = (mail: Mail) => Promise<{ messageId: string; file?: string }>;

function readNotice(runtime: Runtime, noticeId: string) {
  return runtime.db.securityNotice.findUnique({ where: { id: noticeId }, include: { user: { select: { name: true, locale: true, deletedAt: true, referralCode: true } } } });
}

/**
 * A security e-mail (core/src/accounts/security-notices.ts) to the address the notice names: what
 * changed, when, and what to do if it was not the owner. A cashout to a wallet the account
 * was never paid to carries the link that cancels it (its token unsealed here and erased
 * once sent). In the account's language (User.locale, read with the notice). Sent once: the
 * notice is marked sent, and a rerun finds it so.
 */
export async function securityMail(runtime: Runtime, noticeId: string, io: { send: Send; site: string }, logger: Logger): Promise<unknown> {
  const notice = await readNotice(runtime, noticeId);
  if (!notice || notice.sentAt || notice.user.deletedAt) return { skipped: true };
  const t = mailFor(notice.user.locale);
  const mail =
    notice.kind === 'CASHOUT_REQUESTED'
      ? await cashoutMail(runtime, notice, t, io.site)
      : notice.kind === 'WELCOME' || notice.kind === 'REFERRAL_REWARD'
        ? { ...letter(runtime, notice, t, io.site), linkId: null }
        : { ...accountMail(notice, t, io.site), linkId: null };
  if (!mail) return { skipped: true };
  const sent = await io.send({ to: notice.email, subject: mail.subject, text: mail.text });
  await markNoticeSent(runtime.db, notice.id);
  if (mail.linkId) await forgetCancelLinkToken(runtime.db, mail.linkId);
  logger.info({ msg: 'security notice sent', notice_id: notice.id, kind: notice.kind, message_id: sent.messageId, file: sent.file });
  return { messageId: sent.messageId };
}

function notYou(t: MailWords, site: string): string[] {
  return ['', t.notYou(site)];
}

/** A second factor added or removed, a new password, a new e-mail address. */
function accountMail(notice: Notice, t: MailWords, site: string): { subject: string; text: string } {
  const detail = (notice.detail ?? {}) as { factor?: 'totp' | 'passkey'; name?: string; to?: string };
  const factor: Factor = detail.factor === 'passkey' ? { kind: 'passkey', name: detail.name ?? null } : { kind: 'totp' };
  const at = t.time(notice.createdAt);
  const [subject, line] =
    notice.kind === 'FACTOR_ADDED'
      ? [t.factorAdded.subject(factor), t.factorAdded.line(factor, at)]
      : notice.kind === 'FACTOR_REMOVED'
        ? [t.factorRemoved.subject(factor), t.factorRemoved.line(factor, at)]
        : notice.kind === 'PASSWORD_CHANGED'
          ? [t.passwordChanged.subject, t.passwordChanged.line(at)]
          : [t.emailChanged.subject, t.emailChanged.line(detail.to ?? null, at)];
  return { subject, text: [t.hello(notice.user.name), '', line, ...notYou(t, site)].join('\n') };
}

/** The account's letters that are not about its security: the welcome, a referral reward credited. */
function letter(runtime: Runtime, notice: Notice, t: MailWords, site: string): { subject: string; text: string } {
  const percent = String(runtime.config.referralRewardPercent);
  if (notice.kind === 'WELCOME') {
    return {
      subject: t.welcome.subject,
      text: [t.hello(notice.user.name), '', t.welcome.ready(site), '', t.welcome.referral(notice.user.referralCode, percent), '', t.welcome.notYours].join('\n'),
    };
  }
  const detail = (notice.detail ?? {}) as { amount?: string; orderId?: string };
  // centsToString's two decimals, as the ledger credited it.
  const amount = t.usd(detail.amount ?? '0.00');
  return {
    subject: t.referralReward.subject(amount),
    text: [t.hello(notice.user.name), '', t.referralReward.credited({ amount, percent, at: t.time(notice.createdAt) }), t.referralReward.statement(`${site}/profile`)].join('\n'),
  };
}

/** A cashout asked for: to a wallet the account was paid to before, or to a new one (held, with the link that cancels it). */
async function cashoutMail(runtime: Runtime, notice: Notice, t: MailWords, site: string): Promise<{ subject: string; text: string; linkId: string | null } | null> {
  if (!notice.cashoutId) return null;
  const cashout = await runtime.db.cashoutRequest.findUnique({ where: { id: notice.cashoutId }, include: { cancelLink: { select: { id: true } } } });
  if (!cashout) return null;
  const amount = t.usd(cashout.amountUsd.toFixed(2));
  const asked = t.cashoutRequested.asked({ amount, wallet: cashout.wallet, network: runtime.config.network.name, at: t.time(cashout.createdAt) });
  if (!cashout.cancelLink) {
    return { subject: t.cashoutRequested.subject(amount), text: [t.hello(notice.user.name), '', asked, t.cashoutRequested.within, ...notYou(t, site)].join('\n'), linkId: null };
  }
  const link = await cancelLinkForMail(runtime.db, runtime.config, cashout.id);
  const wait = cashout.holdUntil ? t.cashoutNewWallet.waitsUntil(t.time(cashout.holdUntil)) : t.cashoutNewWallet.newWallet;
  const cancel = link
    ? ['', t.cashoutNewWallet.cancel, '', `${site}/cashout/cancel?token=${encodeURIComponent(link.token)}`, '', t.cashoutNewWallet.linkWorks(t.time(link.expiresAt))]
    : notYou(t, site);
  return { subject: t.cashoutNewWallet.subject(amount), text: [t.hello(notice.user.name), '', asked, wait, ...cancel].join('\n'), linkId: link?.id ?? null };
}
