import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from '@/lib/toast';
import type { UserJson } from '@shop/core/contract';
import { ErrorAlert } from '@/components/error-alert';
import { SecondAdminReason } from '@/components/second-admin-reason';
import { FormField } from '@/components/form-field';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { t } from '@/i18n/i18n';
import { getErrorMessage } from '@/lib/api-client';
import { formatAmount } from '@/lib/format';
import { useUpdateUser } from '../api/update-user';
import { NegativeBalanceNote } from './negative-balance-note';

/** The admin's user editor; an empty password leaves the user's password unchanged. */
export function UserForm({ user }: { user: UserJson }) {
  const navigate = useNavigate();
  const adminId = useId();
  const [name, setName] = useState(user.name);
  const [email, setEmail] = useState(user.email);
  const [activeBalance, setActiveBalance] = useState(String(user.activeBalance ?? 0));
  const [passiveBalance, setPassiveBalance] = useState(String(user.passiveBalance ?? 0));
  const [password, setPassword] = useState('');
  const [isAdmin, setIsAdmin] = useState(user.isAdmin);
  const [reason, setReason] = useState('');
  const update = useUpdateUser();
  // What may wait for a second admin (the server decides, by the shop's threshold): admin
  // rights for another user, or more money; the form asks why only then.
  const mayWait = (isAdmin && !user.isAdmin) || Number(activeBalance) > user.activeBalance || Number(passiveBalance) > user.passiveBalance;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    update.mutate(
      {
        userId: user._id,
        name,
        email,
        isAdmin,
        activeBalance,
        passiveBalance,
        loadedActiveBalance: user.activeBalance,
        loadedPassiveBalance: user.passiveBalance,
        password,
        ...(mayWait && reason.trim() ? { approvalReason: reason } : {}),
      },
      {
        onSuccess: (user) => {
          // One message: saved, or saved with what waits for a second admin, as sentences.
          const amount = user.pendingApproval && formatAmount(user.pendingApproval.amountUsd);
          if (amount !== undefined) toast.info(t(user.pendingAdminGrant ? 'users.form.bothWait' : 'users.form.increaseWaits', { amount }));
          else if (user.pendingAdminGrant) toast.info(t('users.form.adminWaits'));
          else toast.success(t('users.form.updated'));
          navigate('/admin/userlist');
        },
        onError: (error) => toast.error(getErrorMessage(error)),
      },
    );
  };

  return (
    <form className="grid gap-4" aria-label={t('users.edit.title')} onSubmit={submit}>
      <FormField label={t('users.form.name')} name="name" placeholder={t('users.form.namePlaceholder')} value={name} onValueChange={setName} />
      <FormField
        label={t('users.form.email')}
        type="email"
        name="email"
        placeholder={t('users.form.emailPlaceholder')}
        value={email}
        onValueChange={setEmail}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          label={t('users.form.activeBalance')}
          type="number"
          name="activeBalance"
          step="0.01"
          inputMode="decimal"
          value={activeBalance}
          onValueChange={setActiveBalance}
        />
        <FormField
          label={t('users.form.passiveBalance')}
          type="number"
          name="passiveBalance"
          step="0.01"
          inputMode="decimal"
          value={passiveBalance}
          onValueChange={setPassiveBalance}
        />
      </div>
      {user.activeBalance < 0 || user.passiveBalance < 0 ? <NegativeBalanceNote who="the user" /> : null}
      <FormField
        label={t('users.form.password')}
        type="password"
        name="password"
        autoComplete="new-password"
        placeholder={t('users.form.passwordPlaceholder')}
        value={password}
        onValueChange={setPassword}
      />
      <div className="flex items-center gap-2">
        <Checkbox id={adminId} checked={isAdmin} onCheckedChange={(checked) => setIsAdmin(checked === true)} />
        <Label htmlFor={adminId}>{t('users.form.isAdmin')}</Label>
      </div>
      {mayWait ? <SecondAdminReason value={reason} onValueChange={setReason} /> : null}
      {update.error ? <ErrorAlert error={update.error} /> : null}
      <Button pending={update.isPending} type="submit" disabled={update.isPending} className="w-full sm:w-fit">
        {t('users.form.update')}
      </Button>
    </form>
  );
}
