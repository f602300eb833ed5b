import { useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { Link } from '@/components/link';
import { toast } from '@/lib/toast';
import { FormField } from '@/components/form-field';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { getErrorMessage } from '@/lib/api-client';
import { useUserInfo } from '@/stores/auth-store';
import { KeyRound } from 'lucide-react';
import { login as loginRequest, useLogin } from '../api/login';
import { answerWithPasskey, asksForCode, passkeyChallenge, passkeyErrorMessage } from '../api/two-factor';
import { AUTH_ERROR_TOAST, AuthCard } from '../components/auth-card';
import { isAdminRequiredState, useRedirectTarget, withRedirect } from '../redirect';

export function LoginPage() {
  const user = useUserInfo();
  const redirect = useRedirectTarget();
  const navigate = useNavigate();
  const adminRequired = isAdminRequiredState(useLocation().state);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // The second step, for an account with two-factor sign-in.
  const [needsCode, setNeedsCode] = useState(false);
  const [code, setCode] = useState('');
  // The account has a passkey: the second step offers it first.
  const [hasPasskey, setHasPasskey] = useState(false);
  // Whether an authenticator app is on too (else only recovery codes stand in for the passkey).
  const [hasTotp, setHasTotp] = useState(true);
  const [passkeyPending, setPasskeyPending] = useState(false);
  const login = useLogin();

  // Signed in already: go on to where the visitor was heading, unless an admin screen
  // sent a non-admin here to sign in with another account.
  if (user && !adminRequired) return <Navigate to={redirect} replace />;

  const submit = () =>
    login.mutate(
      { email, password, ...(needsCode ? { code: code.trim() } : {}) },
      {
        onSuccess: () => {
          toast.dismiss(AUTH_ERROR_TOAST);
          navigate(redirect, { replace: true });
        },
        onError: (error) => {
          if (asksForCode(error) && !needsCode) {
            setNeedsCode(true);
            setHasPasskey(passkeyChallenge(error) !== null);
            setHasTotp((error as { data?: { totp?: unknown } }).data?.totp !== false);
            return;
          }
          toast.error(getErrorMessage(error), { id: AUTH_ERROR_TOAST });
        },
      },
    );

  // A fresh challenge each time (one works once): the first step again, then the passkey's answer.
  const signInWithPasskey = async () => {
    setPasskeyPending(true);
    try {
      const challenge = await loginRequest({ email, password }).then(
        () => null,
        (error: unknown) => passkeyChallenge(error),
      );
      if (!challenge) throw new Error('Sign in with a code: this account has no passkey.');
      const passkey = await answerWithPasskey(challenge);
      await login.mutateAsync({ email, password, passkey });
      toast.dismiss(AUTH_ERROR_TOAST);
      navigate(redirect, { replace: true });
    } catch (error) {
      toast.error(passkeyErrorMessage(error), { id: AUTH_ERROR_TOAST });
    } finally {
      setPasskeyPending(false);
    }
  };

  return (
    <AuthCard
      title="Daxil Olun"
      onSubmit={submit}
      footer={
        <p>
          New customer?{' '}
          <Link to={withRedirect('/register', redirect)} className="font-medium text-foreground underline-offset-4 hover:underline">
            Register
          </Link>
        </p>
      }
    >
      {user && adminRequired ? (
        <Alert>
          <AlertDescription>
            You are signed in as {user.name}, who is not an admin. Sign in with an admin account to open that page.
          </AlertDescription>
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
      <FormField
        label="Password"
        type="password"
        name="password"
        autoComplete="current-password"
        placeholder="Enter password"
        required
        value={password}
        onValueChange={setPassword}
      />
      {needsCode && hasPasskey ? (
        <Button type="button" variant="outline" icon={<KeyRound aria-hidden="true" />} pending={passkeyPending} disabled={passkeyPending} onClick={() => void signInWithPasskey()}>
          Use your passkey
        </Button>
      ) : null}
      {needsCode ? (
        <FormField
          label="Authentication code"
          name="code"
          autoComplete="one-time-code"
          placeholder={hasTotp ? '6-digit code or a recovery code' : 'A recovery code'}
          hint={
            !hasPasskey
              ? 'From your authenticator app; a recovery code works once if you lost the device.'
              : hasTotp
                ? 'Or a code from your authenticator app, or a recovery code (each works once).'
                : 'Or one of your recovery codes, if the passkey is lost (each works once).'
          }
          required
          autoFocus={!hasPasskey}
          maxLength={40}
          value={code}
          onValueChange={setCode}
        />
      ) : null}
      <p className="-mt-2 text-right text-sm">
        <Link to="/forgot-password" className="text-muted-foreground underline-offset-4 hover:text-foreground hover:underline">
          Forgot password?
        </Link>
      </p>
      <Button pending={login.isPending} type="submit" disabled={login.isPending}>
        Sign In
      </Button>
    </AuthCard>
  );
}
