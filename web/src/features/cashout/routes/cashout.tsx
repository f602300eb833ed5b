import { useProfile } from '@/api/get-profile';
import { BackLink } from '@/components/back-link';
import { ErrorAlert } from '@/components/error-alert';
import { Card, CardContent } from '@/components/ui/card';
import { PageSpinner } from '@/components/ui/spinner';
import { CashoutForm } from '../components/cashout-form';
import { CashoutNotices } from '../components/cashout-notices';
import { t } from '@/i18n/i18n';

/** /profile/cashout: the balance is read fresh from the profile, not from userInfo. */
export function CashoutPage() {
  const { data: user, isPending, isError, error } = useProfile();

  return (
    <section className="mx-auto flex w-full max-w-xl flex-col gap-6">
      <BackLink to="/profile" />
      <h1 className="text-2xl font-bold tracking-tight">{t('cashout.title')}</h1>
      <CashoutNotices />
      {isPending ? (
        <PageSpinner label={t('cashout.loadingBalance')} />
      ) : isError ? (
        <ErrorAlert error={error} />
      ) : (
        <Card>
          <CardContent>
            <CashoutForm user={user} />
          </CardContent>
        </Card>
      )}
    </section>
  );
}
