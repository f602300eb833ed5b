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
import { getErrorMessage } from '@/lib/api-client';
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
          if (user.pendingApproval || user.pendingAdminGrant) {
            const increase = user.pendingApproval ? `the balance increase of $${user.pendingApproval.amountUsd.toFixed(2)}` : null;
            const waiting = [increase, user.pendingAdminGrant ? 'admin rights' : null].filter(Boolean).join(' and ');
            // 'Admin rights' are plural: only the increase alone 'waits'.
            const verb = increase && !user.pendingAdminGrant ? 'waits' : 'wait';
            toast.info(`Saved. ${waiting.charAt(0).toUpperCase()}${waiting.slice(1)} ${verb} for a second admin.`);
          } else {
            toast.success('user updated successfully');
          }
          navigate('/admin/userlist');
        },
        onError: (error) => toast.error(getErrorMessage(error)),
      },
    );
  };

  return (
    <form className="grid gap-4" aria-label="Edit User" onSubmit={submit}>
      <FormField label="Name" name="name" placeholder="Enter name" value={name} onValueChange={setName} />
      <FormField
        label="Email Address"
        type="email"
        name="email"
        placeholder="Enter email"
        value={email}
        onValueChange={setEmail}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          label="Active Balance"
          type="number"
          name="activeBalance"
          step="0.01"
          inputMode="decimal"
          value={activeBalance}
          onValueChange={setActiveBalance}
        />
        <FormField
          label="Passive Balance"
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
        label="Password"
        type="password"
        name="password"
        autoComplete="new-password"
        placeholder="Leave empty to keep it"
        value={password}
        onValueChange={setPassword}
      />
      <div className="flex items-center gap-2">
        <Checkbox id={adminId} checked={isAdmin} onCheckedChange={(checked) => setIsAdmin(checked === true)} />
        <Label htmlFor={adminId}>Is Admin</Label>
      </div>
      {mayWait ? <SecondAdminReason value={reason} onValueChange={setReason} /> : null}
      {update.error ? <ErrorAlert error={update.error} /> : null}
      <Button pending={update.isPending} type="submit" disabled={update.isPending} className="w-full sm:w-fit">
        Update
      </Button>
    </form>
  );
}
