import { Fragment, type ReactNode } from 'react';

/**
 * Where the n-th element of a `rich` message goes: pass it as the message's value,
 * `rich(t('pay.refunds.to', { wallet: slot(0) }), <span>{wallet}</span>)`.
 */
export const slot = (index: number): string => `\uE000${index}\uE000`;

/**
 * A catalogue message with elements in it ('Send <strong>0.01 ETH</strong> exactly…'):
 * each `slot(n)` of the message is drawn as `elements[n]`, the rest as the message's text,
 * so each language puts the element where its sentence needs it.
 */
export function rich(message: string, ...elements: ReactNode[]): ReactNode[] {
  return message
    .split(/\uE000(\d+)\uE000/)
    .map((piece, index) => (index % 2 === 1 ? <Fragment key={index}>{elements[Number(piece)]}</Fragment> : piece))
    .filter((piece) => piece !== '');
}
