import { DEFAULT_LOCALE, formatDayIn, formatEth, formatNumberIn, formatTimeIn, formatUsdIn, isLocale, type Locale } from '@shop/core/contract';
import { az } from './az.ts';
import { en, type MailText } from './en.ts';
import { ru } from './ru.ts';

export { operatorMail, type Factor } from './en.ts';

const catalogues: Record<Locale, MailText> = { en, az, ru };

type When = Date | string | null | undefined;

/**
 * The e-mails' texts and formats in a recipient's language: User.locale, English when it
 * is null or not one the shop speaks. English keeps the mails' own forms ('$12.50', SPEC's
 * dates); the other languages write amounts and dates through locale-format.ts.
 */
export function mailFor(locale: string | null | undefined) {
  const lang: Locale = isLocale(locale) ? locale : DEFAULT_LOCALE;
  return {
    ...catalogues[lang],
    locale: lang,
    /** A USD amount given with its two decimals ('12.50'). */
    usd: (amount: string) => (lang === 'en' ? `$${amount}` : formatUsdIn(lang, amount)),
    /** wei as ETH, six decimals. */
    eth: (wei: bigint | string) => (lang === 'en' ? formatEth(wei) : formatNumberIn(lang, formatEth(wei), 6)),
    count: (n: number) => (lang === 'en' ? String(n) : formatNumberIn(lang, n, 0)),
    time: (when: When) => formatTimeIn(lang, when),
    day: (when: When) => formatDayIn(lang, when),
  };
}

export type MailWords = ReturnType<typeof mailFor>;
