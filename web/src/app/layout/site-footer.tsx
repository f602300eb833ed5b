import { useQuery } from '@tanstack/react-query';
import { LOCALES, LOCALE_NAMES, isLocale } from '@shop/core/contract';
import { getShopConfigQueryOptions } from '@/api/get-shop-config';
import { useDisplayCurrency } from '@/components/price';
import { activeLocale, t } from '@/i18n/i18n';
import { chooseCurrency, chooseLocale, chosenCurrency } from '@/i18n/preferences';
import { formatDay, formatNumber } from '@/lib/format';
import { useValueBeforeApp } from '@/lib/value-before-app';

const selectClass = 'rounded-md border border-input bg-background px-2 py-1 text-foreground';

/** The language and display-currency switches, and the rate the converted prices use. */
function Preferences() {
  const currencies = useQuery(getShopConfigQueryOptions()).data?.displayCurrencies ?? [];
  const shown = useDisplayCurrency();
  const pickLocale = (locale: string) => isLocale(locale) && void chooseLocale(locale);
  // A language or currency picked on the drawn page before the app ran is taken once it runs.
  const localeField = useValueBeforeApp<HTMLSelectElement>(pickLocale, activeLocale());
  const currencyField = useValueBeforeApp<HTMLSelectElement>(chooseCurrency, chosenCurrency());
  return (
    <div className="flex flex-col items-center gap-2 sm:items-start">
      <div className="flex flex-wrap items-center gap-4">
        <label className="flex items-center gap-2">
          {t('footer.language')}
          <select ref={localeField} className={selectClass} value={activeLocale()} onChange={(event) => pickLocale(event.target.value)}>
            {LOCALES.map((locale) => (
              <option key={locale} value={locale} lang={locale}>
                {LOCALE_NAMES[locale]}
              </option>
            ))}
          </select>
        </label>
        {currencies.length ? (
          <label className="flex items-center gap-2">
            {t('footer.currency')}
            <select ref={currencyField} className={selectClass} value={chosenCurrency()} onChange={(event) => chooseCurrency(event.target.value)}>
              {['USD', ...currencies.map((currency) => currency.code)].map((code) => (
                <option key={code} value={code}>
                  {code}
                </option>
              ))}
            </select>
          </label>
        ) : null}
      </div>
      {shown ? <p>{t('footer.rate', { code: shown.code, rate: formatNumber(shown.perUsd, 6), day: formatDay(shown.asOf) })}</p> : null}
    </div>
  );
}

export function SiteFooter() {
  const year = new Date().getFullYear();
  return (
    <footer className="border-t">
      <div className="container flex flex-col items-center justify-between gap-4 py-6 text-sm text-muted-foreground sm:flex-row">
        <p>© {year}</p>
        <Preferences />
        <a
          href="https://ethereum.org"
          target="_blank"
          rel="noreferrer"
          className="font-medium text-foreground underline-offset-4 hover:underline"
        >
          {t('footer.poweredBy')}
        </a>
      </div>
    </footer>
  );
}
