import { useState, type FormEvent } from 'react';
import { KeyRound } from 'lucide-react';
import { QRCodeSVG } from 'qrcode.react';
import type { PasskeyJson } from '@shop/core/contract';
import { toast } from '@/lib/toast';
import { FormField } from '@/components/form-field';
import { PageHeader } from '@/components/page-header';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { PageSpinner } from '@/components/ui/spinner';
import { t } from '@/i18n/i18n';
import { getErrorMessage } from '@/lib/api-client';
import { formatDay, formatTime } from '@/lib/format';
import { passkeyErrorMessage, useAddPasskey, useConfirmTotp, useDisableTotp, useRemovePasskey, useStartTotp } from '../api/two-factor';
import { useTwoFactorStatus } from '../api/two-factor-status';

function CodeForm({ label, submitLabel, pending, onCode }: { label: string; submitLabel: string; pending: boolean; onCode: (code: string) => void }) {
  const [code, setCode] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onCode(code.trim());
  };
  return (
    <form className="grid gap-3 sm:max-w-xs" onSubmit={submit} aria-label={submitLabel}>
      <FormField label={label} name="code" autoComplete="one-time-code" inputMode="text" required maxLength={40} value={code} onValueChange={setCode} />
      <Button type="submit" pending={pending} disabled={pending}>
        {submitLabel}
      </Button>
    </form>
  );
}

/** The ten recovery codes, shown once right after two-factor sign-in was turned on. */
function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <div className="grid gap-3">
      <Alert role="status">
        <AlertDescription>{t('security.recoveryCodes.text')}</AlertDescription>
      </Alert>
      <ol aria-label={t('security.recoveryCodes.label')} className="grid grid-cols-2 gap-2 font-mono text-sm sm:max-w-sm">
        {codes.map((c) => (
          <li key={c} className="rounded border px-2 py-1 text-center">
            {c}
          </li>
        ))}
      </ol>
    </div>
  );
}

/** Enrolment: the password, then the QR code (and the key to type by hand), then a first code. */
function EnableTotp({ onEnabled }: { onEnabled: (recoveryCodes: string[]) => void }) {
  const start = useStartTotp();
  const confirm = useConfirmTotp();
  const [password, setPassword] = useState('');
  if (!start.data) {
    const submit = (e: FormEvent) => {
      e.preventDefault();
      start.mutate(password, { onError: (err) => toast.error(getErrorMessage(err)) });
    };
    return (
      <form className="grid gap-3 sm:max-w-xs" onSubmit={submit} aria-label={t('security.totp.setUp')}>
        <p className="text-sm text-muted-foreground">{t('security.totp.intro')}</p>
        <FormField label={t('security.yourPassword')} type="password" name="password" autoComplete="current-password" required value={password} onValueChange={setPassword} />
        <Button type="submit" className="w-fit" pending={start.isPending} disabled={start.isPending}>
          {t('security.totp.setUp')}
        </Button>
      </form>
    );
  }
  return (
    <div className="grid gap-4">
      <p className="text-sm">{t('security.totp.scan')}</p>
      <div className="w-fit rounded-md bg-white p-3">
        <QRCodeSVG value={start.data.otpauthUrl} size={192} level="M" marginSize={4} role="img" aria-label={t('security.totp.qr')} data-testid="totp-qr" />
      </div>
      <p className="text-sm">
        {t('security.totp.typeKey')} <code className="font-mono break-all" data-testid="totp-secret">{start.data.secret}</code>
      </p>
      {confirm.isError ? (
        <Alert variant="destructive">
          <AlertDescription>{getErrorMessage(confirm.error)}</AlertDescription>
        </Alert>
      ) : null}
      <CodeForm label={t('security.totp.codeFromApp')} submitLabel={t('security.turnOn')} pending={confirm.isPending} onCode={(code) => confirm.mutate(code, { onSuccess: (r) => onEnabled(r.recoveryCodes) })} />
    </div>
  );
}

/** The user's passkeys, each removable, and a form to add one (the password, a name, then the browser's prompt). */
function Passkeys({ passkeys, keepOne, onFirstFactor }: { passkeys: PasskeyJson[]; keepOne: boolean; onFirstFactor: (recoveryCodes: string[]) => void }) {
  const add = useAddPasskey();
  const remove = useRemovePasskey();
  const [password, setPassword] = useState('');
  const [name, setName] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    add.mutate(
      { password, name: name.trim() || t('security.passkeys.defaultName') },
      {
        onSuccess: (r) => {
          setPassword('');
          setName('');
          toast.success(t('security.passkeys.added'));
          if (r.recoveryCodes) onFirstFactor(r.recoveryCodes);
        },
        onError: (err) => toast.error(passkeyErrorMessage(err)),
      },
    );
  };
  return (
    <div className="grid gap-4">
      <h3 className="font-medium">{t('security.passkeys.heading')}</h3>
      {passkeys.length ? (
        <ul aria-label={t('security.passkeys.yours')} className="grid gap-2">
          {passkeys.map((p) => (
            <li key={p._id} className="flex flex-wrap items-center justify-between gap-2 rounded border px-3 py-2 text-sm">
              <span>
                <span className="font-medium">{p.name}</span>
                <span className="block text-xs text-muted-foreground">
                  {p.lastUsedAt
                    ? t('security.passkeys.addedUsed', { day: formatDay(p.createdAt), time: formatTime(p.lastUsedAt) })
                    : t('security.passkeys.addedOn', { day: formatDay(p.createdAt) })}
                </span>
              </span>
              <Button
                size="sm"
                variant="outline"
                disabled={remove.isPending || (keepOne && passkeys.length === 1)}
                title={keepOne && passkeys.length === 1 ? t('security.passkeys.keepOne') : undefined}
                onClick={() => {
                  if (!window.confirm(t('security.passkeys.confirmRemove', { name: p.name }))) return;
                  remove.mutate(p._id, { onSuccess: () => toast.success(t('security.passkeys.removed')), onError: (err) => toast.error(getErrorMessage(err)) });
                }}
              >
                {t('security.passkeys.remove')}
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">{t('security.passkeys.none')}</p>
      )}
      <form className="grid gap-3 sm:max-w-xs" onSubmit={submit} aria-label={t('security.passkeys.add')}>
        <FormField label={t('security.passkeys.nameIt')} name="passkey-name" placeholder={t('security.passkeys.namePlaceholder')} maxLength={100} value={name} onValueChange={setName} />
        <FormField label={t('security.yourPassword')} type="password" name="passkey-password" autoComplete="current-password" required value={password} onValueChange={setPassword} />
        <Button type="submit" variant="outline" className="w-fit" icon={<KeyRound aria-hidden="true" />} pending={add.isPending} disabled={add.isPending}>
          {t('security.passkeys.add')}
        </Button>
      </form>
    </div>
  );
}

/** Profile > Security: two-factor sign-in (an authenticator app, passkeys). An admin of a shop that requires it lands here first. */
export function SecurityPage() {
  const status = useTwoFactorStatus();
  const disable = useDisableTotp();
  // Kept here: once on, the status says so, and the codes must stay on screen.
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  if (status.isPending) return <PageSpinner />;
  if (status.isError) {
    return (
      <Alert variant="destructive">
        <AlertDescription>{getErrorMessage(status.error)}</AlertDescription>
      </Alert>
    );
  }
  const { on, totp, passkeys, recoveryCodesLeft, required } = status.data;
  const showCodes = (codes: string[]) => {
    setRecoveryCodes(codes);
    void status.refetch();
  };
  // The last factor of an admin who must keep one cannot go.
  const keepTotp = required && passkeys.length === 0;
  return (
    <section className="flex flex-col gap-6">
      <PageHeader title={t('security.heading')} />
      {required && !on ? (
        <Alert>
          <AlertDescription>{t('security.required')}</AlertDescription>
        </Alert>
      ) : null}
      <Card>
        <CardHeader>
          <h2 className="text-lg font-semibold">{t('security.twoFactor.heading')}</h2>
          <p className="text-sm text-muted-foreground">
            {on ? t('security.twoFactor.on', { count: recoveryCodesLeft, total: 10 }) : t('security.twoFactor.off')}
          </p>
        </CardHeader>
        <CardContent className="grid gap-6">
          {recoveryCodes ? <RecoveryCodes codes={recoveryCodes} /> : null}
          <div className="grid gap-4">
            <h3 className="font-medium">{t('security.totp.heading')}</h3>
            {totp && !disable.isSuccess ? (
              <>
                <p className="text-sm">{t('security.totp.on')}</p>
                {keepTotp ? (
                  <p className="text-sm text-muted-foreground">{t('security.totp.keep')}</p>
                ) : (
                  <>
                    {disable.isError ? (
                      <Alert variant="destructive">
                        <AlertDescription>{getErrorMessage(disable.error)}</AlertDescription>
                      </Alert>
                    ) : null}
                    <CodeForm label={t('security.totp.currentCode')} submitLabel={t('security.turnOff')}
 pending={disable.isPending} onCode={(code) => disable.mutate(code)} />
                  </>
                )}
              </>
            ) : (
              <EnableTotp onEnabled={(codes) => (codes.length ? showCodes(codes) : void status.refetch())} />
            )}
          </div>
          <Passkeys passkeys={passkeys} keepOne={required && !totp} onFirstFactor={showCodes} />
        </CardContent>
      </Card>
    </section>
  );
}
