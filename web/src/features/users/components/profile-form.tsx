import { useState, type FormEvent } from 'react';
import { toast } from '@/lib/toast';
import { PASSWORD_MIN_LENGTH, type UserJson } from '@shop/core/contract';
import { FormField } from '@/components/form-field';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { getErrorMessage } from '@/lib/api-client';
import { t } from '@/i18n/i18n';
import { useUpdateProfile } from '../api/update-profile';

/**
 * Name, Email and a new Password; an empty password leaves it unchanged. A new e-mail or
 * password asks for the current password too (the field shows once either changes).
 */
export function ProfileForm({ user }: { user: UserJson }) {
  const [name, setName] = useState(user.name);
  const [email, setEmail] = useState(user.email);
  const [password, setPassword] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  const update = useUpdateProfile();
  const changesCredentials = password !== '' || email.trim().toLowerCase() !== user.email;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    update.mutate(
      { _id: user._id, name, email, password, ...(changesCredentials ? { currentPassword } : {}) },
      {
        onSuccess: () => {
          setPassword('');
          setCurrentPassword('');
          toast.success(t('users.profile.updated'));
        },
        onError: (error) => toast.error(getErrorMessage(error)),
      },
    );
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">{t('users.profile.title')}</h2>
        </CardTitle>
      </CardHeader>
      <CardContent>
        <form className="grid gap-4" aria-label={t('users.profile.title')} onSubmit={submit}>
          <FormField label={t('users.profile.name')} name="name" autoComplete="name" value={name} onValueChange={setName} />
          <FormField
            label={t('users.profile.email')}
            type="email"
            name="email"
            autoComplete="email"
            value={email}
            onValueChange={setEmail}
          />
          <FormField
            label={t('users.profile.password')}
            type="text"
            name="password"
            autoComplete="new-password"
            placeholder={t('users.profile.passwordPlaceholder')}
            hint={t('users.profile.passwordHint', { min: PASSWORD_MIN_LENGTH })}
            value={password}
            onValueChange={setPassword}
          />
          {changesCredentials ? (
            <FormField
              label={t('users.profile.currentPassword')}
              type="password"
              name="currentPassword"
              autoComplete="current-password"
              required
              hint={t('users.profile.currentPasswordHint')}
              value={currentPassword}
              onValueChange={setCurrentPassword}
            />
          ) : null}
          <Button pending={update.isPending} type="submit" disabled={update.isPending} className="w-full sm:w-fit">
            {t('users.profile.update')}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
