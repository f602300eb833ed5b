/**
 * Every e-mail's text in English: the shape the other languages' catalogues (az.ts, ru.ts)
 * must fill, key for key (a missing one is a type error). The values a text takes come
 * already written for the recipient's language (amounts, dates: ./index.ts through
 * core/src/contract/locale-format.ts); links, names and hashes as they are.
 */
export type Factor = { kind: 'totp' } | { kind: 'passkey'; name: string | null };

const factorName = (f: Factor) => (f.kind === 'passkey' ? `a passkey (${f.name ?? 'unnamed'})` : 'an authenticator app');
const capital = (text: string) => `${text[0]!.toUpperCase()}${text.slice(1)}`;

export const en = {
  hello: (name: string) => `Hello ${name},`,
  transaction: (hash: string) => `Transaction: ${hash}`,
  yourProfile: (url: string) => `Your profile: ${url}`,
  notYou: (site: string) => `If this was not you, someone else can use your account: set a new password at once at ${site}/forgot-password, then check ${site}/profile/security.`,

  receipt: {
    subject: (ref: string) => `Payment received for order ${ref}`,
    confirmed: (ref: string, network: string) => `Your payment for order ${ref} was confirmed on ${network}.`,
    line: (p: { name: string; qty: string; price: string; sum: string }) => `- ${p.name}: ${p.qty} x ${p.price} = ${p.sum}`,
    total: (amount: string) => `Total: ${amount}`,
    paid: (eth: string) => `Paid: ${eth} ETH`,
    runsUntil: (day: string) => `Your packages run until ${day}.`,
    receiptLink: (url: string) => `Your receipt: ${url}`,
  },
  cashoutPaid: {
    subject: (amount: string) => `Your cashout of ${amount} was paid`,
    sent: (p: { amount: string; wallet: string; network: string }) => `Your cashout of ${p.amount} was sent to ${p.wallet} on ${p.network}.`,
  },
  refundPaid: {
    subject: (eth: string) => `Refund of ${eth} ETH sent`,
    /** What was refunded: an order's overpayment, a transfer for an order, or a transfer alone. */
    sent: (p: { what: 'overpayment' | 'order-transfer' | 'transfer'; ref: string; eth: string; wallet: string; network: string }) => {
      const what = p.what === 'overpayment' ? `the overpayment of order ${p.ref}` : p.what === 'order-transfer' ? `your transfer for order ${p.ref}` : 'your transfer';
      return `We refunded ${what}: ${p.eth} ETH was sent to ${p.wallet} on ${p.network}.`;
    },
  },
  passwordReset: {
    subject: 'Set a new password',
    asked: 'Someone (we hope you) asked to set a new password for your account. Open this link to choose one:',
    linkWorks: (until: string) => `The link works once, until ${until}.`,
    ignore: 'If you did not ask for it, ignore this e-mail: your password stays as it is.',
  },
  passwordResetUsed: {
    subject: 'Your password was changed',
    changed: (at: string) => `The password of your account was changed through a reset link at ${at}, and every session of the account was signed out.`,
    notYou: (site: string) => `If this was not you, ask for a new link at ${site}/forgot-password and tell us at once.`,
  },
  factorAdded: {
    subject: (f: Factor) => `Two-factor sign-in: ${factorName(f)} was added to your account`,
    line: (f: Factor, at: string) => `${capital(factorName(f))} was added to the two-factor sign-in of your account at ${at}.`,
  },
  factorRemoved: {
    subject: (f: Factor) => `Two-factor sign-in: ${factorName(f)} was removed from your account`,
    line: (f: Factor, at: string) => `${capital(factorName(f))} was removed from the two-factor sign-in of your account at ${at}.`,
  },
  passwordChanged: {
    subject: 'The password of your account was changed',
    line: (at: string) => `The password of your account was changed at ${at}, and its other sessions were signed out.`,
  },
  emailChanged: {
    subject: 'The e-mail address of your account was changed',
    line: (to: string | null, at: string) => `The e-mail address of your account was changed to ${to ?? 'another address'} at ${at}: we will write there from now on.`,
  },
  welcome: {
    subject: 'Welcome to ETH Shop',
    ready: (site: string) =>
      `Your account is ready. Choose a package at ${site}/ and pay for it in ETH from your wallet; its daily credit then adds to your balance, and your profile shows it: ${site}/profile`,
    referral: (code: string, percent: string) => `Your referral code is ${code}. Whoever registers with it earns you ${percent}% of each order they pay, added to your active balance.`,
    notYours: 'If you did not open this account, tell us by replying to this e-mail.',
  },
  referralReward: {
    subject: (amount: string) => `You earned a referral reward of ${amount}`,
    credited: (p: { amount: string; percent: string; at: string }) =>
      `Someone who registered with your referral code paid an order, and ${p.amount} (${p.percent}% of it) was added to your active balance at ${p.at}.`,
    statement: (url: string) => `Your balance and its statement: ${url}`,
  },
  cashoutRequested: {
    subject: (amount: string) => `Cashout of ${amount} requested`,
    asked: (p: { amount: string; wallet: string; network: string; at: string }) =>
      `A cashout of ${p.amount} from your account to the wallet ${p.wallet} on ${p.network} was asked for at ${p.at}.`,
    within: 'Coins are sent to the wallet within 1-24 hours.',
  },
  cashoutNewWallet: {
    subject: (amount: string) => `Cashout of ${amount} to a new wallet`,
    waitsUntil: (until: string) => `Your account has never been paid to this wallet, so the cashout waits until ${until} before it is paid.`,
    newWallet: 'Your account has never been paid to this wallet.',
    cancel:
      'If this was not you, open this link: it cancels every cashout of your account to this wallet that is still waiting (the amount comes back to your active balance), blocks the wallet for your account and signs your account out everywhere. Then set a new password.',
    linkWorks: (until: string) => `The link works once, until ${until}.`,
  },
};

export type MailText = typeof en;

/** The operator's letter about a cashout request: to the shop's operator, in English only. */
export const operatorMail = {
  subject: (name: string, amount: string) => `Cashout request from ${name}: ${amount}`,
  asked: (p: { name: string; email: string; amount: string; eth: string | null; ethUsd: string }) =>
    `${p.name} (${p.email}) asked for a cashout of ${p.amount}${p.eth ? ` (about ${p.eth} ETH at $${p.ethUsd}/ETH)` : ''}.`,
  sendTo: (network: string) => `Send it to this wallet on ${network}:`,
  act: (url: string, id: string) => `Pay it and record the payout at ${url} (request ${id}).`,
};
