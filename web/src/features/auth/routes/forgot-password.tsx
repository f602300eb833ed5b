import { useState } from 'react';
import { Link } from '@/components/link';
import { FormField } from '@/components/form-field';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { t } from '@/i18n/i18n';
import { getErrorMessage } from '@/lib/api-client';
import { useRequestPasswordReset } from '../api/password-reset';
import { AuthCard } from '../components/auth-card';

/** 'Forgot password?': the e-mail to send a reset link to. */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const request = useRequestPasswordReset();
  return (
    <AuthCard
      title={t('auth.forgot.heading')}
      onSubmit={() => request.mutate(email)}
      footer={
        <p>
          {t('auth.forgot.remembered')}{' '}
          <Link to="/login" className="font-medium text-foreground underline-offset-4 hover:underline">
            {t('auth.signInLink')}
          </Link>
        </p>
      }
    >
      {request.isSuccess ? (
        <Alert role="status">
          <AlertDescription>{t('auth.forgot.sent')}</AlertDescription>
        </Alert>
      ) : (
        <p className="text-sm text-muted-foreground">{t('auth.forgot.text')}</p>
      )}
      {request.isError ? (
        <Alert variant="destructive">
          <AlertDescription>{getErrorMessage(request.error)}</AlertDescription>
        </Alert>
      ) : null}
      <FormField
        label={t('auth.field.email')}
        type="email"
        name="email"
        autoComplete="email"
        placeholder={t('auth.field.emailPlaceholder')}
        required
        value={email}
        onValueChange={setEmail}
      />
      <Button pending={request.isPending} type="submit" disabled={request.isPending}>
        {t('auth.forgot.submit')}

      </Button>
    </AuthCard>
  );
}
