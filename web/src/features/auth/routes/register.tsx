import { useEffect, useState, type ReactNode } from 'react';
import { Navigate, useSearchParams } from 'react-router-dom';
import { Link } from '@/components/link';
import { toast } from '@/lib/toast';
import { PASSWORD_MIN_LENGTH } from '@shop/core/contract';
import { FormField } from '@/components/form-field';
import { Button } from '@/components/ui/button';
import { getErrorMessage, isApiError } from '@/lib/api-client';
import { t } from '@/i18n/i18n';
import { useUserInfo } from '@/stores/auth-store';
import { forgetReferralCode, referralCodeOf, useKeptReferralCode } from '@/stores/referral-store';
import { useReferrer } from '../api/get-referrer';
import { useRegister } from '../api/register';
import { AUTH_ERROR_TOAST, AuthCard } from '../components/auth-card';
import { useRedirectTarget, withRedirect } from '../redirect';

/** `value` once it has stayed the same for a moment: a code is looked up when typing pauses, not at every key. */
function useSettled(value: string, delayMs = 400): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

/** Whose the code is, or that it is no one's (what registration would refuse); nothing while unknown. */
function referrerLine(referrer: ReturnType<typeof useReferrer>): ReactNode {
  if (referrer.data) return <span className="font-medium text-foreground">{t('auth.register.invitedBy', { name: referrer.data.name })}</span>;
  if (referrer.isError && isApiError(referrer.error) && referrer.error.status === 404) {
    return <span className="text-destructive">{getErrorMessage(referrer.error)}</span>;
  }
  return null;
}

export function RegisterPage() {
  const user = useUserInfo();
  const redirect = useRedirectTarget();
  const [params] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [name, setName] = useState('');
  // A shared referral link fills the code in: this page's ?ref=, or the latest link the
  // visitor opened on any page in the last 30 days (kept by the layout).
  // What the visitor typed wins; until then the link's code. The kept one is read as a
  // store, not as the first state: a drawn page hydrates without it, then shows it.
  const kept = useKeptReferralCode();
  const [typed, setReferralCode] = useState<string | null>(null);
  const referralCode = typed ?? params.get('ref') ?? kept ?? '';
  const referrer = useReferrer(useSettled(referralCodeOf(referralCode) ?? ''));
  const register = useRegister();

  if (user) return <Navigate to={redirect} replace />;

  const submit = () => {
    const referredBy = referralCode.trim();
    register.mutate(
      { email, password, name, ...(referredBy ? { referredBy } : {}) },
      {
        // The failed attempt's message goes once the account is made (one message at a time: a new failure replaces it).
        onSuccess: () => {
          toast.dismiss(AUTH_ERROR_TOAST);
          forgetReferralCode();
        },
        onError: (error) => toast.error(getErrorMessage(error), { id: AUTH_ERROR_TOAST }),
      },
    );
  };

  return (
    <AuthCard
      title={t('auth.register.heading')}
      onSubmit={submit}
      footer={
        <p>
          {t('auth.register.haveAccount')}{' '}
          <Link to={withRedirect('/login', redirect)} className="font-medium text-foreground underline-offset-4 hover:underline">
            {t('auth.register.login')}
          </Link>
        </p>
      }
    >
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
        autoComplete="new-password"
        placeholder={t('auth.field.passwordPlaceholder')}
        required
        value={password}
        onValueChange={setPassword}
        hint={t('auth.register.passwordHint', { count: PASSWORD_MIN_LENGTH })}
      />
      <FormField
        label={t('auth.register.name')}
        name="name"
        autoComplete="name"
        placeholder={t('auth.register.namePlaceholder')}
        required
        value={name}
        onValueChange={setName}
      />
      <FormField
        label={t('auth.register.referralCode')}
        name="referralCode"
        autoComplete="off"
        placeholder={t('auth.register.optional')}
        value={referralCode}
        onValueChange={setReferralCode}
        hint={referrerLine(referrer)}
      />
      <Button pending={register.isPending} type="submit" disabled={register.isPending}>
        {t('auth.register.submit')}
      </Button>

    </AuthCard>
  );
}
