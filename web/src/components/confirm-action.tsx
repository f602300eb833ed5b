import type { ReactNode } from 'react';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
import { t } from '@/i18n/i18n';

type ConfirmActionProps = {
  /** The button that asks (rendered as the dialog's trigger). */
  children: ReactNode;
  /** The question, naming the thing: 'Delete order ORD-7F3K2QXM?'. */
  title: string;
  /** What follows from saying yes. */
  description: ReactNode;
  /** The answer that goes ahead ('Delete Order'); Cancel keeps everything as it is. */
  confirmLabel: string;
  onConfirm: () => void;
};

/** An action that asks first (every delete in the admin console): nothing happens until the admin confirms. */
export function ConfirmAction({ children, title, description, confirmLabel, onConfirm }: ConfirmActionProps) {
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>{children}</AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{title}</AlertDialogTitle>
          <AlertDialogDescription>{description}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>{t('confirm.cancel')}</AlertDialogCancel>

          <AlertDialogAction onClick={onConfirm}>{confirmLabel}</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
