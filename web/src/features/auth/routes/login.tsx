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
import { t } from '@/i18n/i18n';
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
      if (!challenge) throw new Error(t('auth.login.noPasskey'));
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
      title={t('auth.login.heading')}
      onSubmit={submit}
      footer={
        <p>
          {t('auth.login.newCustomer')}{' '}
          <Link to={withRedirect('/register', redirect)} className="font-medium text-foreground underline-offset-4 hover:underline">
            {t('auth.login.register')}
          </Link>
        </p>
      }
    >
      {user && adminRequired ? (
        <Alert>
          <AlertDescription>{t('auth.login.notAdmin', { name: user.name })}</AlertDescription>
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
      <FormField
        label={t('auth.field.password')}
        type="password"
        name="password"
        autoComplete="current-password"
        placeholder={t('auth.field.passwordPlaceholder')}
        required
        value={password}
        onValueChange={setPassword}
      />
      {needsCode && hasPasskey ? (
        <Button type="button" variant="outline" icon={<KeyRound aria-hidden="true" />} pending={passkeyPending} disabled={passkeyPending} onClick={() => void signInWithPasskey()}>
          {t('stepUp.usePasskey')}
        </Button>
      ) : null}
      {needsCode ? (
        <FormField
          label={t('stepUp.code')}
          name="code"
          autoComplete="one-time-code"
          placeholder={hasTotp ? t('auth.login.codePlaceholder') : t('auth.login.recoveryPlaceholder')}
          hint={
            !hasPasskey
              ? t('auth.login.codeHint')
              : hasTotp
                ? t('auth.login.codeHintPasskey')
                : t('auth.login.codeHintRecovery')
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
          {t('auth.login.forgotPassword')}
        </Link>
      </p>
      <Button pending={login.isPending} type="submit" disabled={login.isPending}>
        {t('auth.login.submit')}

      </Button>
    </AuthCard>
  );
}
