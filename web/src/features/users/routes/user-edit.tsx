import { useParams } from 'react-router-dom';
import { BackLink } from '@/components/back-link';
import { ErrorAlert } from '@/components/error-alert';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { PageSpinner } from '@/components/ui/spinner';
import { t } from '@/i18n/i18n';
import { useUser } from '../api/get-user';
import { UserForm } from '../components/user-form';

export function UserEditPage() {
  const { id = '' } = useParams();
  const { data: user, isPending, isError, error } = useUser(id);

  return (
    <section className="mx-auto flex w-full max-w-2xl flex-col gap-6">
      <BackLink to="/admin/userlist" />
      <Card>
        <CardHeader>
          <h1 className="text-2xl font-bold tracking-tight">{t('users.edit.title')}</h1>
        </CardHeader>
        <CardContent>
          {isPending ? (
            <PageSpinner label={t('users.edit.loading')} />
          ) : isError ? (
            <ErrorAlert error={error} />
          ) : (
            <UserForm key={user._id} user={user} />
          )}
        </CardContent>
      </Card>
    </section>
  );
}
