import { useEffect, useRef, useState, type FormEvent } from 'react';
import { FormField } from '@/components/form-field';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { KeyRound } from 'lucide-react';
import { t } from '@/i18n/i18n';
import { api, getErrorMessage, onStepUp } from '@/lib/api-client';
import { passkeyErrorMessage, stepUpWithPasskey } from '../api/two-factor';
import { useTwoFactorStatus } from '../api/two-factor-status';

/**
 * Asked in place when a money action needs a second factor (the api's 403
 * `stepUpRequired`): the user's passkey, or a code from the authenticator app (or a recovery code); once the
 * server took it, the action goes again by itself. Closing the dialog cancels it.
 */
export function StepUpDialog() {
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const waiting = useRef<((ok: boolean) => void) | null>(null);

  useEffect(() => {
    onStepUp(
      () =>
        new Promise<boolean>((resolve) => {
          waiting.current?.(false);
          waiting.current = resolve;
          setCode('');
          setError(null);
          setOpen(true);
        }),
    );
    return () => onStepUp(undefined);
  }, []);

  const finish = (ok: boolean) => {
    waiting.current?.(ok);
    waiting.current = null;
    setOpen(false);
  };

  // Read when asked: whether to offer a passkey.
  const status = useTwoFactorStatus(open);
  const hasPasskey = (status.data?.passkeys.length ?? 0) > 0;
  const withPasskey = async () => {
    setPending(true);
    try {
      await stepUpWithPasskey();
      finish(true);
    } catch (err) {
      setError(passkeyErrorMessage(err));
    } finally {
      setPending(false);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setPending(true);
    try {
      await api.post('/api/users/2fa/step-up', { code: code.trim() });
      finish(true);
    } catch (err) {
      setError(getErrorMessage(err));
    } finally {
      setPending(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? setOpen(true) : finish(false))}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t('stepUp.title')}</DialogTitle>
          <DialogDescription>{hasPasskey ? t('stepUp.textWithPasskey') : t('stepUp.text')}</DialogDescription>
        </DialogHeader>
        <form className="grid gap-3" onSubmit={(e) => void submit(e)} aria-label={t('stepUp.title')}>
          {error ? (
            <Alert variant="destructive">
              <AlertDescription>{error}</AlertDescription>
            </Alert>
          ) : null}
          {hasPasskey ? (
            <Button type="button" variant="outline" icon={<KeyRound aria-hidden="true" />} pending={pending} disabled={pending} onClick={() => void withPasskey()}>
              {t('stepUp.usePasskey')}
            </Button>
          ) : null}
          <FormField label={t('stepUp.code')} name="code" autoComplete="one-time-code" required autoFocus={!hasPasskey} maxLength={40} value={code} onValueChange={setCode} />
          <Button type="submit" pending={pending} disabled={pending}>
            {t('stepUp.confirm')}
          </Button>

        </form>
      </DialogContent>
    </Dialog>
  );
}
