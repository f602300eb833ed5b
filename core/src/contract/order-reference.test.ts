import { describe, expect, it } from 'vitest';
import { orderReference, orderReferenceRange } from './order-reference.ts';

const randomUUID = () => globalThis.crypto.randomUUID();

describe('order reference', () => {
  it('reads as ORD- and 8 unambiguous characters', () => {
    expect(orderReference('00000000-0000-4000-8000-000000000000')).toBe('ORD-00000000');
    expect(orderReference('ffffffff-ff00-4000-8000-000000000000')).toBe('ORD-ZZZZZZZZ');
    expect(orderReference(randomUUID())).toMatch(/^ORD-[0-9A-HJKMNP-TV-Z]{8}$/);
  });

  it('turns back into the range of ids that holds its order, whatever way it is typed', () => {
    for (let i = 0; i < 200; i += 1) {
      const id = randomUUID();
      const reference = orderReference(id);
      for (const typed of [reference, reference.toLowerCase(), `ORD${reference.slice(4)}`, ` ord ${reference.slice(4)} `]) {
        const range = orderReferenceRange(typed);
        expect(range, typed).toBeDefined();
        expect(range!.from <= id && id <= range!.to, `${typed} -> ${JSON.stringify(range)} holds ${id}`).toBe(true);
      }
    }
  });

  it('reads O as 0 and I, L as 1, and refuses what is not a reference', () => {
    expect(orderReferenceRange('ord-o0il1000')).toEqual(orderReferenceRange('ORD-00111000'));
    expect(orderReferenceRange('ORD-1234')).toBeUndefined();
    expect(orderReferenceRange('ORD-UUUUUUUU')).toBeUndefined();
    expect(orderReferenceRange('buyer@example.com')).toBeUndefined();
    // Names: eight bare characters, and text that only starts like a reference.
    expect(orderReferenceRange('Smithson')).toBeUndefined();
    expect(orderReferenceRange('Ordway Smith')).toBeUndefined();
  });

  it('reads the eight characters alone as a reference only when asked to (a field that names an order)', () => {
    const id = randomUUID();
    const range = orderReferenceRange(` ${orderReference(id).slice(4).toLowerCase()} `, { bare: true });
    expect(range).toEqual(orderReferenceRange(orderReference(id)));
    expect(orderReferenceRange(orderReference(id), { bare: true })).toEqual(range);
    expect(orderReferenceRange('1234567', { bare: true })).toBeUndefined();
    expect(orderReferenceRange('UUUUUUUU', { bare: true })).toBeUndefined();
    expect(orderReferenceRange('Ordway Smith', { bare: true })).toBeUndefined();
  });
});
