import { useLayoutEffect, useRef } from 'react';

/**
 * A field of a page drawn on the server can be filled before the app runs (typed, a
 * password manager's, a quantity or a language picked): the field shows it, but the app's
 * state starts from its first render and knows nothing of it, so a submit would send the
 * field as drawn (an empty sign-in, one package where three were picked). Once the app has
 * taken the page over, a value the field shows that the state lacks is handed to `onValue`.
 * Returns the ref for the field (an input or a select).
 */
export function useValueBeforeApp<E extends HTMLInputElement | HTMLSelectElement = HTMLInputElement>(onValue: ((value: string) => void) | undefined, value: unknown) {
  const ref = useRef<E>(null);
  // In the commit that hydrates the field, before the browser hands the page a tap: a
  // submit never sees the state without the value.
  useLayoutEffect(() => {
    const shown = ref.current?.value;
    // A field the app controls (`value` given) whose shown value is not the state's.
    if (onValue && value !== undefined && shown && shown !== String(value)) onValue(shown);
    // Once, when the app takes the field over: later the field and the state move together.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return ref;
}
