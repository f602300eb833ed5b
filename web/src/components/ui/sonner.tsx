import type { CSSProperties } from 'react';
import { Toaster as Sonner, type ToasterProps } from 'sonner';
import { t } from '@/i18n/i18n';

/**
 * SPEC.md section 9: top-right, 5 s. Sonner itself pauses the timer while a toast is
 * hovered and while the tab is hidden, and dismisses on a swipe.
 */
export function Toaster(props: ToasterProps) {
  return (
    <Sonner
      position="top-right"
      duration={5000}
      richColors
      closeButton
      // sonner's own English names of the toasts' region and close buttons, in the page's language.
      containerAriaLabel={t('toast.region')}
      toastOptions={{ closeButtonAriaLabel: t('toast.close') }}

      className="toaster group"
      style={
        {
          '--normal-bg': 'var(--popover)',
          '--normal-text': 'var(--popover-foreground)',
          '--normal-border': 'var(--border)',
          // Sonner's rich colours, darkened until their text reads at 4.5:1 on their backgrounds.
          '--success-text': 'hsl(140, 100%, 22%)',
          '--error-text': 'hsl(360, 100%, 37%)',
          '--info-text': 'hsl(210, 92%, 36%)',
          '--warning-text': 'hsl(31, 92%, 28%)',
        } as CSSProperties
      }
      {...props}
    />
  );
}
