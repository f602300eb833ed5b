import { Copy, Users } from 'lucide-react';
import type { UserJson } from '@shop/core/contract';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
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
          onClick={() => void copyToClipboard(value, 'Copy to clipboard', 'Could not copy; select the text and copy it by hand.')}
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
          <h2 className="text-lg">Referral</h2>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <CopyRow label="Referral Link" value={referralLink(user.referralCode)} copyLabel="Copy referral link" />
        <CopyRow label="Referral Code" value={user.referralCode} copyLabel="Copy referral code" />
        <p className="flex items-center gap-2 text-sm">
          <Users aria-hidden="true" className="size-4 text-muted-foreground" />
          Referral Command: {count} person
        </p>
      </CardContent>
    </Card>
  );
}
