import { PASSWORD_MIN_LENGTH } from '@shop/core/contract';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { FormField } from '@/components/form-field';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { getErrorMessage } from '@/lib/api-client';
import { clearUserInfo } from '@/stores/auth-store';
import { useConfirmPasswordReset } from '../api/password-reset';
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

  const submit = () => {
    setMismatch(password !== confirm);
    if (password !== confirm) return;
    // Every session of the account ends: this browser signs in again too.
    reset.mutate({ token, password }, { onSuccess: () => clearUserInfo() });
  };

  if (reset.isSuccess) {
    return (
      <AuthCard title="Password changed" onSubmit={() => {}} footer={<Link to="/login" className={linkClass}>Sign in</Link>}>
        <Alert role="status">
          <AlertDescription>{reset.data.message}</AlertDescription>
        </Alert>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Set a new password"
      onSubmit={submit}
      footer={
        <p>
          Link expired?{' '}
          <Link to="/forgot-password" className={linkClass}>
            Ask for a new one
          </Link>
        </p>
      }
    >
      {!token ? (
        <Alert variant="destructive">
          <AlertDescription>This page needs the link from the e-mail we sent you.</AlertDescription>
        </Alert>
      ) : null}
      {reset.isError ? (
        <Alert variant="destructive">
          <AlertDescription>{getErrorMessage(reset.error)}</AlertDescription>
        </Alert>
      ) : null}
      <FormField
        label="New password"
        type="password"
        name="password"
        autoComplete="new-password"
        placeholder={`At least ${PASSWORD_MIN_LENGTH} characters`}
        required
        minLength={PASSWORD_MIN_LENGTH}
        value={password}
        onValueChange={setPassword}
      />
      <FormField
        label="Confirm new password"
        type="password"
        name="confirm"
        autoComplete="new-password"
        placeholder="The same password again"
        required
        value={confirm}
        onValueChange={setConfirm}
      />
      {mismatch ? (
        <Alert variant="destructive">
          <AlertDescription>Passwords do not match</AlertDescription>
        </Alert>
      ) : null}
      <Button pending={reset.isPending} type="submit" disabled={reset.isPending || !token}>
        Set new password
      </Button>
    </AuthCard>
  );
}
