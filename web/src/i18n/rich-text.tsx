import { Fragment, type ReactNode } from 'react';

const MARK = '\uE000';

/**
 * Values for `t()` that hold the places of elements in a message:
 * `t('pay.refunds.to', marks('wallet'))`, or `t(key, { ...values, ...marks('hash', 'day') })`,
 * then draw the text with `withParts`.
 */
export const marks = (...names: string[]): Record<string, string> => Object.fromEntries(names.map((name) => [name, `${MARK}${name}${MARK}`]));

/**
 * A catalogue message with elements in it ('Send <strong>0.01 ETH</strong> exactly…'): the text of
 * `t(key, marks(...))` with each mark drawn as the element of its name, the rest as the message's
 * text, so each language puts the element where its sentence needs it.
 */
export function withParts(text: string, parts: Record<string, ReactNode>): ReactNode {
  return text
    .split(MARK)
    .map((piece, i) => (i % 2 === 1 ? <Fragment key={i}>{parts[piece]}</Fragment> : piece))
    .filter((piece) => piece !== '');
}
