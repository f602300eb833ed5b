import { Fragment, type ReactNode } from 'react';

const MARK = '\u0001';

/** Values for t() that hold the places of elements: `t(key, { ...values, ...marks('hash') })`, then `withParts`. */
export const marks = (...names: string[]): Record<string, string> => Object.fromEntries(names.map((name) => [name, `${MARK}${name}${MARK}`]));

/**
 * A message with elements in it (a hash in its own type, a value in bold): the text of
 * `t(key, marks(...))` with each mark drawn as the element of its name, where the translation put it.
 */
export function withParts(text: string, parts: Record<string, ReactNode>): ReactNode {
  return text.split(MARK).map((piece, i) => (i % 2 === 1 ? <Fragment key={i}>{parts[piece]}</Fragment> : piece));
}
