import { createElement, type SVGProps } from 'react';

/** An icon's data as lucide-react's module for it exports it (`__iconData`). */
export type LucideIconData = {
  name: string;
  node: readonly (readonly [tag: string, attributes: Readonly<Record<string, string | number>>])[];
  aliases?: readonly string[];
};

/**
 * A lucide icon drawn from its data: the markup lucide-react's own component draws (its
 * default attributes, the classes `lucide lucide-<name>`, `aria-hidden` unless the icon is
 * named to screen readers), without its icon builder, which the app never configures
 * (no size, stroke or context props). `import { Star } from 'lucide-react'` in the app
 * becomes one of these at build time (web/lucide-icons.ts), for 1.0 kB less of the home
 * page's JavaScript (docs/decisions.md).
 */
export function lucideIcon({ name, node, aliases = [] }: LucideIconData) {
  const classes = ['lucide', `lucide-${name}`, ...aliases.map((alias) => `lucide-${alias}`)].join(' ');
  function LucideIcon({ className, children, ...props }: SVGProps<SVGSVGElement>) {
    const named = Boolean(children) || Object.entries(props).some(([prop, value]) => value != null && (prop.startsWith('aria-') || prop === 'role' || prop === 'title'));
    return (
      <svg
        xmlns="http://www.w3.org/2000/svg"
        width={24}
        height={24}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
        className={className ? `${classes} ${className}` : classes}
        aria-hidden={named ? undefined : 'true'}
        {...props}
      >
        {node.map(([tag, attributes]) => createElement(tag, attributes))}
        {children}
      </svg>
    );
  }
  return LucideIcon;
}
