import type { ComponentProps, MouseEvent } from 'react';
import { useHref, useLinkClickHandler, type To } from 'react-router-dom';

export type LinkProps = Omit<ComponentProps<'a'>, 'href'> & { to: To; replace?: boolean };

/**
 * A link to a screen of the app: an `<a>` whose click the router handles (a click with a
 * modifier key, or to another target, is the browser's), as React Router's `Link` is,
 * without what that one brings for framework mode's route modules (prefetching them,
 * 1.5 kB gzipped of every page), which this app does not use.
 */
export function Link({ to, replace, target, onClick, ...props }: LinkProps) {
  const href = useHref(to);
  const follow = useLinkClickHandler<HTMLAnchorElement>(to, { replace, target });
  const click = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (!event.defaultPrevented) follow(event);
  };
  return <a {...props} href={href} target={target} onClick={click} />;
}
