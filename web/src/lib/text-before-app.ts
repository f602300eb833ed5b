import { useLayoutEffect, useRef } from 'react';

/**
 * A field of a page drawn on the server can be filled before the app runs (typed, or by a
 * password manager): the field shows the text, but the app's state starts from its first
 * render and knows nothing of it, so a submit would send an empty field. Once the app has
 * taken the page over, text the field shows that the state lacks is taken into the state.
 * Returns the ref for the field.
 */
export function useTextBeforeApp(onText: ((text: string) => void) | undefined, value: unknown) {
  const ref = useRef<HTMLInputElement>(null);
  // In the commit that hydrates the field, before the browser hands the page a tap: a
  // submit never sees the state without the text.
  useLayoutEffect(() => {
    const shown = ref.current?.value;
    if (onText && typeof value === 'string' && shown && shown !== value) onText(shown);
    // Once, when the app takes the field over: later the field and the state move together.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return ref;
}
