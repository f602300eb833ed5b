import type { FormEvent, ReactNode } from 'react';
import { Card, CardContent, CardFooter, CardHeader } from '@/components/ui/card';

type AuthCardProps = {
  title: string;
  onSubmit: () => void;
  children: ReactNode;
  footer: ReactNode;
};

/** The centred card around the sign-in and registration forms. */
/** The one error toast of a sign-in or registration form: a new failure replaces it, success clears it. */
export const AUTH_ERROR_TOAST = 'auth-error';

export function AuthCard({ title, onSubmit, children, footer }: AuthCardProps) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <div className="mx-auto w-full max-w-md py-4 sm:py-10">
      <Card>
        <CardHeader>
          <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
        </CardHeader>
        <CardContent>
          {/* POST: sent before the app runs (a page drawn on the server), a password never goes into an address. */}
          <form method="post" className="grid gap-4" onSubmit={submit} aria-label={title}>
            {children}
          </form>
        </CardContent>
        <CardFooter className="text-sm text-muted-foreground">{footer}</CardFooter>
      </Card>
    </div>
  );
}
