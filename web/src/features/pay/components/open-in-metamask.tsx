import { useLocation } from 'react-router-dom';
import { Smartphone } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { metaMaskDeepLink } from '../wallet-messages';
import { t } from '@/i18n/i18n';

/** On a phone without an injected wallet: open this very page in MetaMask's own browser. */
export function OpenInMetaMask() {
  const { pathname } = useLocation();
  const href = metaMaskDeepLink(window.location.host, pathname);
  return (
    <Alert>
      <Smartphone aria-hidden="true" />
      <AlertTitle>{t('pay.openInMetaMask.title')}</AlertTitle>
      <AlertDescription>
        <p>{t('pay.openInMetaMask.text')}</p>
        <Button asChild size="sm" className="mt-1">
          <a href={href}>{t('pay.openInMetaMask.open')}</a>
        </Button>
      </AlertDescription>
    </Alert>
  );
}
