import { Link } from '@/components/link';
import { ArrowLeft } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { t } from '@/i18n/i18n';

/** The 'Go Back' link of the detail and edit screens. */
export function BackLink({ to }: { to: string }) {
  return (
    <Button asChild variant="outline" size="sm" className="w-fit">
      <Link to={to}>
        <ArrowLeft aria-hidden="true" />
        {t('backLink.goBack')}

      </Link>
    </Button>
  );
}
