import { useState } from 'react';
import { Link } from '@/components/link';
import { FormField } from '@/components/form-field';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { getErrorMessage } from '@/lib/api-client';
import { useRequestPasswordReset } from '../api/password-reset';
import { AuthCard } from '../components/auth-card';

/** 'Forgot password?': the e-mail to send a reset link to. */
export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const request = useRequestPasswordReset();
  return (
    <AuthCard
      title="Forgot password"
      onSubmit={() => request.mutate(email)}
      footer={
        <p>
          Remembered it?{' '}
          <Link to="/login" className="font-medium text-foreground underline-offset-4 hover:underline">
            Sign in
          </Link>
        </p>
      }
    >
      {request.isSuccess ? (
        <Alert role="status">
          <AlertDescription>{request.data.message}</AlertDescription>
        </Alert>
      ) : (
        <p className="text-sm text-muted-foreground">Enter the e-mail of your account: we send it a link to set a new password.</p>
      )}
      {request.isError ? (
        <Alert variant="destructive">
          <AlertDescription>{getErrorMessage(request.error)}</AlertDescription>
        </Alert>
      ) : null}
      <FormField
        label="Email Address"
        type="email"
        name="email"
        autoComplete="email"
        placeholder="Enter email"
        required
        value={email}
        onValueChange={setEmail}
      />
      <Button pending={request.isPending} type="submit" disabled={request.isPending}>
        Send reset link
      </Button>
    </AuthCard>
  );
}
