import { Link } from '@/components/link';
import { formatOrderLine } from '@/lib/line-total';

export type OrderLine = {
  key: string;
  productId: string;
  name: string;
  image: string;
  price: number;
  qty: number;
};

/** The lines of a cart or order: image, name linking to the product, and the line sum. */
export function OrderLines({ lines, label }: { lines: OrderLine[]; label: string }) {
  return (
    <ul aria-label={label} className="divide-y rounded-xl border px-4">
      {lines.map((line) => (
        <li key={line.key} className="grid grid-cols-[3.5rem_minmax(0,1fr)] items-center gap-x-4 gap-y-1 py-3 sm:grid-cols-[3.5rem_minmax(0,1fr)_auto]">
          <img
            src={line.image}
            alt={line.name}
            className="row-span-2 aspect-square w-full rounded-md border bg-muted object-cover sm:row-span-1"
          />
          <Link to={`/product/${line.productId}`} className="truncate font-medium hover:underline">
            {line.name}
          </Link>
          <span className="text-sm tabular-nums text-muted-foreground sm:text-right sm:text-foreground">
            {formatOrderLine(line.qty, line.price)}
          </span>
        </li>
      ))}
    </ul>
  );
}
