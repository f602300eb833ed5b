import { Printer } from 'lucide-react';
import { orderReference, type AssetCode, type OrderJson } from '@shop/core/contract';
import { Price } from '@/components/price';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatAssetAmount, paymentAmount, paymentUnits } from '@/lib/asset-amount';
import { daysLeft, formatTime, formatDay, formatAmount } from '@/lib/format';
import { lineTotal } from '@/lib/line-total';
import { marks, withParts } from '@/i18n/rich-text';
import { t } from '@/i18n/i18n';

/** What paid the order in each asset: its counted transfers, summed exactly in their smallest units ('0.007000 ETH', '25.00 USDC'). */
export function paidAmounts(order: OrderJson): string[] {
  const sums = new Map<AssetCode, bigint>();
  for (const p of order.payments ?? []) {
    const units = paymentUnits(p);
    if (p.status !== 'COUNTED' || units === null) continue;
    sums.set(p.asset, (sums.get(p.asset) ?? 0n) + BigInt(units));
  }
  return [...sums].filter(([, sum]) => sum > 0n).map(([asset, sum]) => formatAssetAmount(sum, asset));
}

/**
 * A paid order as a receipt: what was bought (quantity, unit price, line total, daily
 * credit and term), the total, what was paid in USD and in each asset and by which
 * transactions. Printed with the browser's own print (a print stylesheet, not a PDF
 * library: see docs/decisions.md); the page's header, footer and buttons are left out.
 */
export function OrderReceipt({ order }: { order: OrderJson }) {
  const paid = paidAmounts(order);
  const counted = (order.payments ?? []).filter((p) => p.status === 'COUNTED');
  return (
    <Card role="region" aria-label={t('pay.receipt.region')} className="print:border-0 print:shadow-none">
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1">
          <CardTitle className="text-lg">
            <h2>{t('pay.receipt.title', { reference: orderReference(order._id) })}</h2>
          </CardTitle>
          <p className="text-sm text-muted-foreground">
            {order.paidAt
              ? t('pay.receipt.placedPaid', { placed: formatTime(order.createdAt), paid: formatTime(order.paidAt) })
              : t('pay.receipt.placed', { placed: formatTime(order.createdAt) })}
          </p>
        </div>
        <Button variant="outline" size="sm" className="print:hidden" onClick={() => window.print()}>
          <Printer aria-hidden="true" />
          {t('pay.receipt.print')}
        </Button>
      </CardHeader>
      <CardContent className="flex flex-col gap-5">
        <div className="overflow-x-auto">
          <table className="w-full text-sm">
            <caption className="sr-only">{t('pay.receipt.caption')}</caption>
            <thead>
              <tr className="border-b text-left text-muted-foreground">
                <th scope="col" className="py-2 pr-3 font-medium">{t('pay.receipt.package')}</th>
                <th scope="col" className="py-2 pr-3 text-right font-medium">{t('pay.receipt.qty')}</th>
                <th scope="col" className="hidden py-2 pr-3 text-right font-medium sm:table-cell print:table-cell">{t('pay.receipt.price')}</th>
                <th scope="col" className="py-2 text-right font-medium">{t('pay.summary.total')}</th>
              </tr>
            </thead>
            <tbody>
              {order.orderedItems.map((item, index) => (
                <tr key={`${item.product}-${index}`} className="border-b align-top">
                  <td className="py-2 pr-3">
                    <span className="font-medium">{item.name}</span>
                    {item.dailyCredit !== undefined && item.durationDays !== undefined ? (
                      <span className="block text-xs text-muted-foreground">
                        {item.creditEndsAt
                          ? withParts(t('pay.receipt.creditUntil', { ...marks('credit'), days: item.durationDays, day: formatDay(item.creditEndsAt) }), { credit: <Price usd={item.dailyCredit} /> })
                          : withParts(t('pay.receipt.credit', { ...marks('credit'), days: item.durationDays }), { credit: <Price usd={item.dailyCredit} /> })}
                      </span>
                    ) : null}
                  </td>
                  <td className="py-2 pr-3 text-right tabular-nums">{item.qty}</td>
                  <td className="hidden py-2 pr-3 text-right tabular-nums sm:table-cell print:table-cell"><Price usd={item.price} /></td>
                  <td className="py-2 text-right tabular-nums">
                    <Price usd={lineTotal(item.price, item.qty)} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
          <dt className="text-muted-foreground">{t('pay.summary.total')}</dt>
          <dd className="text-right text-base font-semibold tabular-nums">
            <Price usd={order.totalPrice} />
          </dd>
          <dt className="text-muted-foreground">{t('pay.receipt.paid')}</dt>
          <dd className="text-right tabular-nums">
            <Price usd={order.paidUsd} />
            {paid.map((amount) => (
              <span key={amount} className="block text-muted-foreground">
                {amount}
              </span>
            ))}
          </dd>
          {order.expiresAt ? (
            <>
              <dt className="text-muted-foreground">{t('pay.receipt.termEnds')}</dt>
              <dd className="text-right">
                <time dateTime={order.expiresAt}>{formatDay(order.expiresAt)}</time>
                <span className="text-muted-foreground"> {t('pay.receipt.daysLeft', { count: daysLeft(order.expiresAt) ?? 0 })}</span>
              </dd>
            </>
          ) : null}
        </dl>
        {counted.length ? (
          <div className="grid gap-2 text-sm">
            <h3 className="font-medium">{counted.length === 1 ? t('pay.receipt.transaction') : t('pay.receipt.transactions')}</h3>
            <ul className="grid gap-2">
              {counted.map((p) => (
                <li key={p.txHash} className="grid gap-0.5">
                  <code className="break-all font-mono text-xs">{p.txHash}</code>
                  <span className="text-xs text-muted-foreground">
                    {[paymentAmount(p), p.usdValue !== null ? t('pay.receipt.usd', { usd: formatAmount(p.usdValue) }) : null]
                      .filter((part) => part !== null && part !== '—')
                      .join(' · ')}
                  </span>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <p className="text-xs text-muted-foreground">{t('pay.receipt.orderId', { id: order._id })}</p>
      </CardContent>
    </Card>
  );
}
