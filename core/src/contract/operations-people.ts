import { z } from 'zod';
import {
  cancelCashoutBody, cashoutBody, cashoutCancelJson, cashoutPreviewJson, ethPriceJson, exchangeBody, exchangeResult, healthJson, localeBody, loginBody, myCashoutJson, passkeyRegisteredJson, passkeyRegistrationBody, passwordCheckBody, passwordResetBody, passwordResetCheckBody, passwordResetConfirmBody, personJson, recoveryCodesJson, shopConfigJson, referrerJson, referrerQuery, registerBody, statementEntryJson, stepUpBody, totpEnrolmentJson, twoFactorCodeBody, twoFactorStatus, updateProfileBody, userJson, webAuthnOptionsJson,
} from './index.ts';
import { ok, page, message, PAGED, type Operation } from './operation-parts.ts';
import { pageQuery } from './queries.ts';

/** The system, users and sessions, and two-factor sign-in. */
export const peopleOperations: Operation[] = [
  // System
  {
    method: 'GET', path: '/api/health', tag: 'System', access: 'public', summary: 'Health of the database, Redis, the Ethereum node and the queues',
    description: 'ok or degraded per dependency; 503 unless all are ok. Anyone else is answered from one round of checks per HEALTH_CACHE_MS (5 s) of the api process. Admins and the metrics scraper (METRICS_TOKEN as a bearer token) get a fresh round with `details` (the dependencies, the books, the deposit factory\'s check).',
    answers: [ok(healthJson, 'Every dependency works'), ok(healthJson, 'A dependency is down', 503)],
  },
  {
    method: 'GET', path: '/api/config', tag: 'System', access: 'public', summary: 'The network the shop runs on',
    description: 'Its chain id and name, whether it is a test network (every page shows a banner) or a development chain (the dev wallet), and the block explorer transaction links go to (null: none). From CHAIN_ID, DEV_CHAIN, SHOP_NETWORK_LABEL and EXPLORER_URL.',
    answers: [ok(shopConfigJson)],
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
    method: 'GET', path: '/api/users/referrer', tag: 'Users', access: 'public', summary: "Whose a referral code is: the referrer's name, for the register page",
    description: 'The name only. An unknown code (or a deleted account\'s) is a 404 with the message registration gives; tries are limited per address like sign-in (RATE_LIMIT_AUTH_PER_MINUTE).',
    query: referrerQuery, answers: [ok(referrerJson)], errors: [404, 429],
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
    method: 'POST', path: '/api/users/password-reset/check', tag: 'Users', access: 'public', summary: "Whether the e-mail's reset link still works",
    description: 'For the page the link opens: a 400 with one message for a used, expired or unknown link, and nothing about the account. Changes nothing; limited per address like sign-in.',
    body: passwordResetCheckBody, answers: [message('The link works')], errors: [400, 429],
  },
  {
    method: 'POST', path: '/api/users/password-reset/confirm', tag: 'Users', access: 'public', summary: "Set a new password with the e-mail's token",
    description: "Ends every session of the account, this one too.",
    body: passwordResetConfirmBody, answers: [message('Password changed')], errors: [429],
  },
  { method: 'GET', path: '/api/users/profile', tag: 'Users', access: 'user', summary: 'The signed-in user', answers: [ok(userJson)] },
  {
    method: 'PUT', path: '/api/users/profile', tag: 'Users', access: 'user', stepUp: 'when the e-mail or the password changes', summary: "Change the signed-in user's name, e-mail or password",
    description: "A new e-mail or password needs `currentPassword` (400 without it, or with a wrong one), ends the user's other sessions and is e-mailed to the account's address (the old one, for a new e-mail). A `currentPassword` sent spends the sign-in attempts of the address and of the account (429 when spent).",
    body: updateProfileBody, answers: [ok(userJson)], errors: [409, 429],
  },
  {
    method: 'PUT', path: '/api/users/profile/locale', tag: 'Users', access: 'user', summary: "Keep the signed-in user's language",
    description: 'en, az or ru: the language of their e-mails, set as the language cookie here and on every later sign-in.',
    body: localeBody, answers: [message('Language saved')],
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
    method: 'POST', path: '/api/users/exchange', tag: 'Users', access: 'user', stepUp: true, summary: 'Move an amount of the active balance (the whole of it when none is given) to the passive balance',
    description:
      'An active balance of 0, or an amount of 0, is a 400; an amount above the active balance (it changed since the user confirmed) is a 409 and nothing moves. ' +
      'With a requestId, sending it again moves nothing more. It cannot be undone: with a second factor on, it needs a step-up.',
    body: exchangeBody, answers: [ok(exchangeResult)], errors: [400, 409],
  },
  {
    method: 'POST', path: '/api/users/cashout/preview', tag: 'Users', access: 'user', summary: 'What a cashout to a wallet would do now: the amount, and whether the wallet is new to the account and the cashout waits',
    description: "The same refusals as the cashout itself (400: 'Not Enough Money', a bad or blocked wallet); nothing is written.",
    body: cashoutBody, answers: [ok(cashoutPreviewJson)], errors: [400],
  },
  {
    method: 'POST', path: '/api/users/cashout', tag: 'Users', access: 'user', stepUp: 'always, given after sign-in (the code or passkey of the sign-in itself does not count)', summary: 'Ask for the active balance to be paid out in ETH to a wallet',
    description:
      "400 'Not Enough Money' unless the active balance is above CASHOUT_MINIMUM, and for a wallet the owner blocked; the answer is the user with an active balance of 0. " +
      'To a wallet the account was never paid to, the cashout is HELD for NEW_WALLET_HOLD_HOURS; the account is e-mailed every cashout, a new wallet with a link that cancels it.',
    body: cashoutBody, answers: [ok(userJson)], errors: [409],
  },
  {
    method: 'POST', path: '/api/users/cashout/cancel', tag: 'Users', access: 'public', summary: "The new-wallet e-mail's link: cancel the cashouts to that wallet, block it and sign the account out everywhere",
    description: 'The token is the authority (no session). Cashouts already being paid are not stopped. A second use changes nothing and answers the same; an unknown or expired link is a 400.',
    body: cancelCashoutBody, answers: [ok(cashoutCancelJson)], errors: [400, 429],
  },

  // Two-factor sign-in
  { method: 'GET', path: '/api/users/2fa', tag: 'Two-factor sign-in', access: 'user', summary: "The signed-in user's second factors", answers: [ok(twoFactorStatus)] },
  {
    method: 'POST', path: '/api/users/2fa/totp', tag: 'Two-factor sign-in', access: 'user', stepUp: 'when the account has a second factor already', summary: 'Start authenticator-app enrolment (the password again)',
    body: passwordCheckBody, answers: [ok(totpEnrolmentJson)], errors: [409, 429],
  },
  {
    method: 'POST', path: '/api/users/2fa/totp/confirm', tag: 'Two-factor sign-in', access: 'user', stepUp: 'when the account has a second factor already', summary: "Finish enrolment with a first code: the recovery codes, shown once",
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
];
