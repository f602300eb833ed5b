import { useProfile } from '@/api/get-profile';
import { ErrorAlert } from '@/components/error-alert';
import { PageSpinner } from '@/components/ui/spinner';
import { t } from '@/i18n/i18n';
import { OrderHistory } from '@/features/orders/components/order-history';
import { PaidOrders } from '@/features/orders/components/paid-orders';
import { UnpaidOrders } from '@/features/orders/components/unpaid-orders';
import { BalanceCard } from '@/features/users/components/balance-card';
import { ProfileForm } from '@/features/users/components/profile-form';
import { ReferralCard } from '@/features/users/components/referral-card';
import { StatementCard } from '@/features/users/components/statement-card';

/** /profile: the user's own record, balance and statement (users) beside their orders (orders). */
export function ProfilePage() {
  const { data: user, isPending, isError, error } = useProfile();

  return (
    <section className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold tracking-tight">{t('profile.title')}</h1>
      {isPending ? (
        <PageSpinner label={t('profile.loading')} />
      ) : isError ? (
        <ErrorAlert error={error} />
      ) : (
        <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
          <div className="grid gap-6">
            <ProfileForm key={user._id} user={user} />
            <ReferralCard user={user} />
          </div>
          <div className="grid gap-6">
            <BalanceCard user={user} />
            <UnpaidOrders />
            <PaidOrders />
            <OrderHistory />
            <StatementCard />
          </div>
        </div>
      )}
    </section>
  );
}
