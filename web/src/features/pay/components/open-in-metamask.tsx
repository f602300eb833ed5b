import { useLocation } from 'react-router-dom';
import { Smartphone } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { metaMaskDeepLink } from '../wallet-messages';

/** On a phone without an injected wallet: open this very page in MetaMask's own browser. */
export function OpenInMetaMask() {
  const { pathname } = useLocation();
  const href = metaMaskDeepLink(window.location.host, pathname);
  return (
    <Alert>
      <Smartphone aria-hidden="true" />
      <AlertTitle>Pay from your phone</AlertTitle>
      <AlertDescription>
        <p>This browser has no wallet. Open this page in the MetaMask app to pay.</p>
        <Button asChild size="sm" className="mt-1">
          <a href={href}>Open MetaMask</a>
        </Button>
      </AlertDescription>
    </Alert>
  );
}
