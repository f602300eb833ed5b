/**
 * The short reference a person reads for an order (`ORD-7F3K2QXM`): the first 40 bits of
 * the order's UUID in Crockford base32. The UUID stays the API's id; the reference is
 * derived, never stored, so it needs no migration and no backfill.
 *
 * Why these 40 bits: a v4 UUID's first 40 bits are random, so two orders share a
 * reference about once in 2M orders (a birthday bound over 2^40). A reference is turned
 * back into a range of ids (`orderReferenceRange`), so an admin's search reads the
 * primary key index and lists every order in the range: the rare pair shows both.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const PREFIX = 'ORD-';
const CHARS = 8;

export function orderReference(id: string): string {
  const hex = id.replace(/-/g, '').slice(0, 10);
  if (!/^[0-9a-fA-F]{10}$/.test(hex)) return id;
  let bits = BigInt(`0x${hex}`);
  let out = '';
  for (let i = 0; i < CHARS; i += 1) {
    out = ALPHABET[Number(bits & 31n)] + out;
    bits >>= 5n;
  }
  return PREFIX + out;
}

/** `ORD`, an optional dash or space, and the 8 characters: what a reference looks like typed. */
const TYPED = /^ORD[-\s]?([0-9A-Z]{8})$/;
/** The 8 characters alone: a reference copied without its prefix. */
const BARE = /^([0-9A-Z]{8})$/;

/**
 * The ids an order reference stands for, as an inclusive UUID range, or undefined when the
 * text is not a reference. Accepts what a person types or pastes: any case, with or
 * without the dash, O for 0 and I, L for 1. The `ORD` prefix is required unless `bare`:
 * eight bare characters are as often a name ('Smithson') as a reference, so only a field
 * that names an order takes them as one (and the order search tries them as a reference
 * before it reads them as a name); text that only starts with 'Ord' ('Ordway Smith') is a name.
 */
export function orderReferenceRange(text: string, opts: { bare?: boolean } = {}): { from: string; to: string } | undefined {
  const typed = text.trim().toUpperCase();
  const match = TYPED.exec(typed) ?? (opts.bare ? BARE.exec(typed) : null);
  if (!match) return undefined;
  let bits = 0n;
  for (const char of match[1]!.replace(/O/g, '0').replace(/[IL]/g, '1')) {
    const value = ALPHABET.indexOf(char);
    if (value < 0) return undefined;
    bits = (bits << 5n) | BigInt(value);
  }
  const hex = bits.toString(16).padStart(10, '0');
  const uuid = (rest: string) => {
    const all = hex + rest;
    return `${all.slice(0, 8)}-${all.slice(8, 12)}-${all.slice(12, 16)}-${all.slice(16, 20)}-${all.slice(20)}`;
  };
  return { from: uuid('0'.repeat(22)), to: uuid('f'.repeat(22)) };
}
