import { useState } from 'react';
import { Copy, Eye, EyeOff } from 'lucide-react';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { getErrorMessage } from '@/lib/api-client';
import { copyToClipboard } from '@/lib/clipboard';
import { t } from '@/i18n/i18n';
import { useRevealWebhookSecret } from '../api/reveal-webhook-secret';

/** What stands for the secret until it is shown (its prefix, then dots). */
const HIDDEN_SECRET = 'whsec_••••••••••••••••';

/**
 * The endpoint's signing secret: hidden until asked for, copyable either way. The list
 * does not carry it (only the answer that created the endpoint does): showing or copying
 * it asks the server, which may want a code first and records who asked.
 */
export function WebhookSecret({ endpointId, secret: given }: { endpointId: string; secret: string | null }) {
  const [secret, setSecret] = useState(given);
  const [shown, setShown] = useState(false);
  const reveal = useRevealWebhookSecret(endpointId);
  const load = async (): Promise<string | null> => {
    if (secret) return secret;
    try {
      const { secret: revealed } = await reveal.mutateAsync();
      setSecret(revealed);
      return revealed;
    } catch (err) {
      toast.error(getErrorMessage(err));
      return null;
    }
  };
  return (
    <div className="flex flex-wrap items-center gap-2">
      <code className="min-w-0 rounded-md border bg-muted px-2 py-1 font-mono text-xs break-all">
        {shown && secret ? secret : HIDDEN_SECRET}
      </code>
      <Button
        type="button"
        size="sm"
        variant="outline"
        pending={reveal.isPending}
        icon={shown ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
        onClick={() => void (shown ? setShown(false) : load().then((s) => setShown(s !== null)))}
      >
        {t(shown ? 'webhooks.secret.hide' : 'webhooks.secret.show')}
      </Button>
      <Button
        type="button"
        size="sm"
        variant="outline"
        icon={<Copy aria-hidden="true" />}
        onClick={() =>
          void load().then((s) => (s ? copyToClipboard(s, t('webhooks.secret.copied'), t('webhooks.secret.copyFailed')) : undefined))
        }
      >
        {t('webhooks.secret.copy')}
      </Button>
    </div>
  );
}
