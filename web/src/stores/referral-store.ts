import { useSyncExternalStore } from 'react';
import { createLocalStorageStore } from '@/lib/local-storage-store';

export const REFERRAL_STORAGE_KEY = 'referral';
/** How long a referral link's code waits for the visitor to register. */
export const REFERRAL_KEPT_DAYS = 30;
const DAY_MS = 86_400_000;

/** What a link's `?ref=` may carry: the api's codes are letters and digits, at most 32 (contract/users.ts). */
const CODE = /^[A-Za-z0-9]{1,32}$/;

type KeptReferral = { code: string; until: number };

function parseKept(value: unknown): KeptReferral | null {
  const kept = value as Partial<KeptReferral> | null;
  return kept && typeof kept.code === 'string' && CODE.test(kept.code) && typeof kept.until === 'number' ? { code: kept.code, until: kept.until } : null;
}

// First-party storage, so a visitor who looks around before registering (or comes back
// within the month) still registers with the friend's code.
const store = createLocalStorageStore<KeptReferral | null>(REFERRAL_STORAGE_KEY, parseKept, null);

/** The code in what a link or a person gave (upper-cased, as codes are stored), or undefined when it cannot be one. */
export function referralCodeOf(raw: string): string | undefined {
  const code = raw.trim().toUpperCase();
  return CODE.test(code) ? code : undefined;
}

/** Keeps a referral link's code for REFERRAL_KEPT_DAYS from now: the latest link wins. Anything that is not a code is ignored. */
export function keepReferralCode(raw: string, now = Date.now()): void {
  const code = referralCodeOf(raw);
  if (code) store.set({ code, until: now + REFERRAL_KEPT_DAYS * DAY_MS });
}

/** The code of the latest referral link, unless it is older than REFERRAL_KEPT_DAYS. */
export function keptReferralCode(now = Date.now()): string | undefined {
  const kept = store.get();
  return kept && now < kept.until ? kept.code : undefined;
}

/**
 * keptReferralCode for a component: none in the first render of a page drawn on the
 * server (the server has no localStorage; hydration must see what it drew), the kept code
 * right after.
 */
export function useKeptReferralCode(): string | undefined {
  return useSyncExternalStore(store.subscribe, keptCode, noCode);
}

const keptCode = () => keptReferralCode();
const noCode = () => undefined;

/** Forgets the kept code (it was used to register). */
export const forgetReferralCode = store.remove;
