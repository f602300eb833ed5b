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
        <AlertDescription>Two-factor sign-in is on. Keep these recovery codes somewhere safe: each works once, if you lose your device. They are not shown again.</AlertDescription>
      </Alert>
      <ol aria-label="Recovery codes" className="grid grid-cols-2 gap-2 font-mono text-sm sm:max-w-sm">
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
      <form className="grid gap-3 sm:max-w-xs" onSubmit={submit} aria-label="Set up an authenticator app">
        <p className="text-sm text-muted-foreground">Sign in with a code from an authenticator app (Google Authenticator, 1Password, Aegis...) as well as your password.</p>
        <FormField label="Your password" type="password" name="password" autoComplete="current-password" required value={password} onValueChange={setPassword} />
        <Button type="submit" className="w-fit" pending={start.isPending} disabled={start.isPending}>
          Set up an authenticator app
        </Button>
      </form>
    );
  }
  return (
    <div className="grid gap-4">
      <p className="text-sm">Scan this code with your authenticator app, then enter the 6-digit code it shows.</p>
      <div className="w-fit rounded-md bg-white p-3">
        <QRCodeSVG value={start.data.otpauthUrl} size={192} level="M" marginSize={4} role="img" aria-label="QR code for your authenticator app" data-testid="totp-qr" />
      </div>
      <p className="text-sm">
        Or type this key: <code className="font-mono break-all" data-testid="totp-secret">{start.data.secret}</code>
      </p>
      {confirm.isError ? (
        <Alert variant="destructive">
          <AlertDescription>{getErrorMessage(confirm.error)}</AlertDescription>
        </Alert>
      ) : null}
      <CodeForm label="Code from the app" submitLabel="Turn on" pending={confirm.isPending} onCode={(code) => confirm.mutate(code, { onSuccess: (r) => onEnabled(r.recoveryCodes) })} />
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
      { password, name: name.trim() || 'Passkey' },
      {
        onSuccess: (r) => {
          setPassword('');
          setName('');
          toast.success('Passkey added');
          if (r.recoveryCodes) onFirstFactor(r.recoveryCodes);
        },
        onError: (err) => toast.error(passkeyErrorMessage(err)),
      },
    );
  };
  return (
    <div className="grid gap-4">
      <h3 className="font-medium">Passkeys</h3>
      {passkeys.length ? (
        <ul aria-label="Your passkeys" className="grid gap-2">
          {passkeys.map((p) => (
            <li key={p._id} className="flex flex-wrap items-center justify-between gap-2 rounded border px-3 py-2 text-sm">
              <span>
                <span className="font-medium">{p.name}</span>
                <span className="block text-xs text-muted-foreground">
                  Added {formatDay(p.createdAt)}
                  {p.lastUsedAt ? `, last used ${formatTime(p.lastUsedAt)}` : ''}
                </span>
              </span>
              <Button
                size="sm"
                variant="outline"
                disabled={remove.isPending || (keepOne && passkeys.length === 1)}
                title={keepOne && passkeys.length === 1 ? 'Admins of this shop must keep a second factor' : undefined}
                onClick={() => {
                  if (!window.confirm(`Remove the passkey '${p.name}'?`)) return;
                  remove.mutate(p._id, { onSuccess: () => toast.success('Passkey removed'), onError: (err) => toast.error(getErrorMessage(err)) });
                }}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">Confirm it is you with this device's screen lock or a security key instead of typing a code.</p>
      )}
      <form className="grid gap-3 sm:max-w-xs" onSubmit={submit} aria-label="Add a passkey">
        <FormField label="Name it" name="passkey-name" placeholder="Laptop, phone, security key..." maxLength={100} value={name} onValueChange={setName} />
        <FormField label="Your password" type="password" name="passkey-password" autoComplete="current-password" required value={password} onValueChange={setPassword} />
        <Button type="submit" variant="outline" className="w-fit" icon={<KeyRound aria-hidden="true" />} pending={add.isPending} disabled={add.isPending}>
          Add a passkey
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
      <PageHeader title="Security" />
      {required && !on ? (
        <Alert>
          <AlertDescription>This shop requires two-factor sign-in for admins: turn it on to open the admin pages.</AlertDescription>
        </Alert>
      ) : null}
      <Card>
        <CardHeader>
          <h2 className="text-lg font-semibold">Two-factor sign-in</h2>
          <p className="text-sm text-muted-foreground">
            {on ? `On. ${recoveryCodesLeft} of 10 recovery codes left.` : 'Off: signing in needs only your password.'}
          </p>
        </CardHeader>
        <CardContent className="grid gap-6">
          {recoveryCodes ? <RecoveryCodes codes={recoveryCodes} /> : null}
          <div className="grid gap-4">
            <h3 className="font-medium">Authenticator app</h3>
            {totp && !disable.isSuccess ? (
              <>
                <p className="text-sm">On: signing in can take a code from your authenticator app.</p>
                {keepTotp ? (
                  <p className="text-sm text-muted-foreground">Admins of this shop must keep a second factor: add a passkey before turning this off.</p>
                ) : (
                  <>
                    {disable.isError ? (
                      <Alert variant="destructive">
                        <AlertDescription>{getErrorMessage(disable.error)}</AlertDescription>
                      </Alert>
                    ) : null}
                    <CodeForm label="Current code" submitLabel="Turn off" pending={disable.isPending} onCode={(code) => disable.mutate(code)} />
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
