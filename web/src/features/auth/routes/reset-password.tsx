import { PASSWORD_MIN_LENGTH } from '@shop/core/contract';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Link } from '@/components/link';
import { FormField } from '@/components/form-field';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { getErrorMessage, isApiError } from '@/lib/api-client';
import { t } from '@/i18n/i18n';
import { clearUserInfo } from '@/stores/auth-store';
import { useCheckPasswordReset, useConfirmPasswordReset } from '../api/password-reset';
import { AuthCard } from '../components/auth-card';

const linkClass = 'font-medium text-foreground underline-offset-4 hover:underline';

/** /reset-password?token=...: the new password, set once with the e-mailed link. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const reset = useConfirmPasswordReset();
  const check = useCheckPasswordReset(token);
  // A link the server refuses (used, expired, unknown): said at once, with no form to fill in.
  // Any other failure of the check leaves the form: setting the password gives the answer.
  const refused = check.isError && isApiError(check.error) && check.error.status === 400;

  const submit = () => {
    setMismatch(password !== confirm);
    if (password !== confirm) return;
    // Every session of the account ends: this browser signs in again too.
    reset.mutate({ token, password }, { onSuccess: () => clearUserInfo() });
  };

  if (reset.isSuccess) {
    return (
      <AuthCard title={t('auth.reset.changed')} onSubmit={() => {}} footer={<Link to="/login" className={linkClass}>{t('auth.signInLink')}</Link>}>
        <Alert role="status">
          <AlertDescription>{t('auth.reset.done')}</AlertDescription>
        </Alert>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title={t('auth.reset.heading')}
      onSubmit={submit}
      footer={
        <p>
          {t('auth.reset.linkExpired')}{' '}
          <Link to="/forgot-password" className={linkClass}>
            {t('auth.reset.askNew')}
          </Link>
        </p>
      }
    >
      {!token ? (
        <Alert variant="destructive">
          <AlertDescription>{t('auth.reset.needsLink')}</AlertDescription>
        </Alert>
      ) : null}
      {refused ? (
        <Alert variant="destructive">
          <AlertDescription>{getErrorMessage(check.error)}</AlertDescription>
        </Alert>
      ) : (
        <NewPasswordFields
          password={password}
          confirm={confirm}
          mismatch={mismatch}
          error={reset.isError ? reset.error : null}
          pending={reset.isPending}
          disabled={!token}
          onPassword={setPassword}
          onConfirm={setConfirm}
        />
      )}
    </AuthCard>
  );
}

type FieldsProps = {
  password: string;
  confirm: string;
  mismatch: boolean;
  error: unknown;
  pending: boolean;
  disabled: boolean;
  onPassword: (value: string) => void;
  onConfirm: (value: string) => void;
};

/** The new password twice, why setting it failed, and the button. */
function NewPasswordFields({ password, confirm, mismatch, error, pending, disabled, onPassword, onConfirm }: FieldsProps) {
  return (
    <>
      {error ? (
        <Alert variant="destructive">
          <AlertDescription>{getErrorMessage(error)}</AlertDescription>
        </Alert>
      ) : null}
      <FormField
        label={t('auth.reset.newPassword')}
        type="password"
        name="password"
        autoComplete="new-password"
        placeholder={t('auth.reset.newPasswordPlaceholder', { count: PASSWORD_MIN_LENGTH })}
        required
        minLength={PASSWORD_MIN_LENGTH}
        value={password}
        onValueChange={onPassword}
      />
      <FormField
        label={t('auth.reset.confirm')}
        type="password"
        name="confirm"
        autoComplete="new-password"
        placeholder={t('auth.reset.confirmPlaceholder')}
        required
        value={confirm}
        onValueChange={onConfirm}
      />
      {mismatch ? (
        <Alert variant="destructive">
          <AlertDescription>{t('auth.reset.mismatch')}</AlertDescription>
        </Alert>
      ) : null}
      <Button pending={pending} type="submit" disabled={pending || disabled}>
        {t('auth.reset.submit')}

      </Button>
    </>
  );
}
