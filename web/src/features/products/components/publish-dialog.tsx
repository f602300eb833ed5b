import { useState, type FormEvent } from 'react';
import { termCredit } from '@shop/core/contract';
import { SecondAdminReason } from '@/components/second-admin-reason';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { t } from '@/i18n/i18n';
import { formatUsd } from '@/lib/format';
import type { Product } from '../types';

type PublishDialogProps = {
  product: Product;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  pending: boolean;
  /** Publishes, with the reason when one was given. */
  onPublish: (approvalReason?: string) => void;
};

/**
 * Before publishing a draft that the server says will wait for a second admin (it pays
 * more over its term than it costs): what it pays, and why the admin asks, which the
 * approver reads on Admin > Approvals.
 */
export function PublishDialog({ product, open, onOpenChange, pending, onPublish }: PublishDialogProps) {
  const [reason, setReason] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onPublish(reason.trim() || undefined);
  };
  const pays = termCredit(product.dailyCredit, product.durationDays);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <form onSubmit={submit} className="grid gap-4">
          <DialogHeader>
            <DialogTitle>{t('products.publish.question', { name: product.name })}</DialogTitle>
            <DialogDescription>
              {t('products.publish.text', { pays: formatUsd(pays), days: product.durationDays, price: formatUsd(product.price) })}
            </DialogDescription>
          </DialogHeader>
          <SecondAdminReason value={reason} onValueChange={setReason} />
          <div className="flex justify-end gap-2">
            <Button type="submit" pending={pending} disabled={pending}>
              {t('products.publish.ask')}

            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
