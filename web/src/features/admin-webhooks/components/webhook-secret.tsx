import { useState } from 'react';
import { Copy, Eye, EyeOff } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { copyToClipboard } from '@/lib/clipboard';

/** The endpoint's signing secret: hidden until asked for, copyable either way. */
export function WebhookSecret({ secret }: { secret: string }) {
  const [shown, setShown] = useState(false);
  return (
    <div className="flex flex-wrap items-center gap-2">
      <code className="min-w-0 rounded-md border bg-muted px-2 py-1 font-mono text-xs break-all">
        {shown ? secret : 'whsec_••••••••••••••••'}
      </code>
      <Button
        type="button"
        size="sm"
        variant="outline"
        icon={shown ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
        onClick={() => setShown((s) => !s)}
      >
        {shown ? 'Hide secret' : 'Show secret'}
      </Button>
      <Button
        type="button"
        size="sm"
        variant="outline"
        icon={<Copy aria-hidden="true" />}
        onClick={() => void copyToClipboard(secret, 'Signing secret copied', 'Could not copy; show the secret and copy it by hand.')}
      >
        Copy secret
      </Button>
    </div>
  );
}
