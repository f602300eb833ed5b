import { useState, type FormEvent } from 'react';
import { QRCodeSVG } from 'qrcode.react';
import { toast } from 'sonner';
import { FormField } from '@/components/form-field';
import { PageHeader } from '@/components/page-header';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { PageSpinner } from '@/components/ui/spinner';
import { getErrorMessage } from '@/lib/api-client';
import { useConfirmTotp, useDisableTotp, useStartTotp, useTwoFactorStatus } from '../api/two-factor';

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

/** Profile > Security: two-factor sign-in on or off. An admin of a shop that requires it lands here first. */
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
  const { totp, recoveryCodesLeft, required } = status.data;
  return (
    <section className="flex flex-col gap-6">
      <PageHeader title="Security" />
      {required && !totp ? (
        <Alert>
          <AlertDescription>This shop requires two-factor sign-in for admins: turn it on to open the admin pages.</AlertDescription>
        </Alert>
      ) : null}
      <Card>
        <CardHeader>
          <h2 className="text-lg font-semibold">Two-factor sign-in</h2>
        </CardHeader>
        <CardContent className="grid gap-4">
          {recoveryCodes ? (
            <RecoveryCodes codes={recoveryCodes} />
          ) : totp && !disable.isSuccess ? (
            <>
              <p className="text-sm">
                On: signing in asks for a code from your authenticator app. {recoveryCodesLeft} of 10 recovery codes left.
              </p>
              {required ? (
                <p className="text-sm text-muted-foreground">Admins of this shop must keep it on.</p>
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
            <EnableTotp
              onEnabled={(codes) => {
                setRecoveryCodes(codes);
                void status.refetch();
              }}
            />
          )}
        </CardContent>
      </Card>
    </section>
  );
}
