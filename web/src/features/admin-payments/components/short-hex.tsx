import { shortHex } from '@/lib/format';

/** '0x1234ab…cdef' for a hash or address; the whole value is in the title (and copyable). */
export function ShortHex({ value }: { value: string | null | undefined }) {
  if (!value) return <span className="text-muted-foreground">—</span>;
  return (
    <span title={value} className="font-mono text-xs">
      {shortHex(value)}
    </span>
  );
}
