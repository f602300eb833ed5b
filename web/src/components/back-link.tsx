import { Link } from '@/components/link';
import { ArrowLeft } from 'lucide-react';
import { Button } from '@/components/ui/button';

/** The 'Go Back' link of the detail and edit screens. */
export function BackLink({ to }: { to: string }) {
  return (
    <Button asChild variant="outline" size="sm" className="w-fit">
      <Link to={to}>
        <ArrowLeft aria-hidden="true" />
        Go Back
      </Link>
    </Button>
  );
}
