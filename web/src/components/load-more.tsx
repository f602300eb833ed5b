import { Button } from '@/components/ui/button';
import { t } from '@/i18n/i18n';
import type { PagedList } from '@/lib/paged-query';

/** Under a paged list: reads the next page, shown only while there is one. */
export function LoadMore({ list, label }: { list: PagedList; label?: string }) {
  if (!list.hasNextPage) return null;
  return (
    <div className="flex justify-center py-4">
      <Button type="button" variant="outline" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
        {list.isFetchingNextPage ? t('list.loading') : (label ?? t('list.loadMore'))}

      </Button>
    </div>
  );
}
