import { Copy, Users } from 'lucide-react';
import type { UserJson } from '@shop/core/contract';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { t } from '@/i18n/i18n';
import { copyToClipboard } from '@/lib/clipboard';

export function referralLink(code: string): string {
  return `${window.location.origin}/register?ref=${code}`;
}

function CopyRow({ label, value, copyLabel }: { label: string; value: string; copyLabel: string }) {
  return (
    <div className="grid gap-1.5">
      <span className="text-sm font-medium">{label}</span>
      <div className="flex items-center gap-2">
        <code className="w-0 min-w-0 flex-1 truncate rounded-md border bg-muted px-3 py-2 font-mono text-sm" title={value}>
          {value}
        </code>
        <Button
          type="button"
          variant="outline"
          size="icon"
          aria-label={copyLabel}
          onClick={() => void copyToClipboard(value, t('users.referral.copied'), t('users.referral.copyFailed'))}
        >
          <Copy aria-hidden="true" />
        </Button>
      </div>
    </div>
  );
}

/** The user's referral link and code, each with a copy button, and the referral count. */
export function ReferralCard({ user }: { user: UserJson }) {
  // The count, not the list: a referrer of thousands gets only the newest few names.
  const count = user.referralCount ?? user.referralCommand?.length ?? 0;
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">{t('users.referral.title')}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <CopyRow label={t('users.referral.link')} value={referralLink(user.referralCode)} copyLabel={t('users.referral.copyLink')} />
        <CopyRow label={t('users.referral.code')} value={user.referralCode} copyLabel={t('users.referral.copyCode')} />
        <p className="flex items-center gap-2 text-sm">
          <Users aria-hidden="true" className="size-4 text-muted-foreground" />
          {t('users.referral.count', { count })}
        </p>
      </CardContent>
    </Card>
  );
}
