import { Link } from '@/components/link';
import { Button } from '@/components/ui/button';
import { t } from '@/i18n/i18n';

export function NotFoundPage() {
  return (
    <section className="flex flex-col items-center gap-4 py-16 text-center">
      <p className="text-5xl font-bold text-muted-foreground">404</p>
      <h1 className="text-2xl font-semibold">{t('notFound.heading')}</h1>
      <p className="text-muted-foreground">{t('notFound.text')}</p>
      <Button asChild variant="outline">
        <Link to="/">{t('notFound.backHome')}</Link>

      </Button>
    </section>
  );
}
