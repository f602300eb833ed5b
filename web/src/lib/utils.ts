import { clsx, type ClassValue } from 'clsx';

/**
 * The property a Tailwind utility sets (its group), for the utilities the app's class
 * lists can set twice; any other class is kept as it is. tailwind-merge knows every
 * utility, and was 8.4 kB gzipped of the home page's code; this knows what
 * lib/class-lists.test.ts finds the app merging, where it checks every list against
 * tailwind-merge. A list the test finds this resolving otherwise needs its group here.
 */
function groupOf(utility: string): string | undefined {
  let m: RegExpMatchArray | null;
  if (/^(block|inline-block|inline|flex|inline-flex|grid|inline-grid|hidden|contents|table|flow-root)$/.test(utility)) return 'display';
  if (/^(static|fixed|absolute|relative|sticky)$/.test(utility)) return 'position';
  if (/^flex-(row|col)(-reverse)?$/.test(utility)) return 'flex-direction';
  if (/^flex-(1|auto|initial|none)$/.test(utility)) return 'flex';
  if ((m = /^(?:flex-)?(shrink|grow)(?:-|$)/.exec(utility))) return m[1];
  if ((m = /^(gap(?:-[xy])?|[pm][xytrblse]?|w|h|size|min-[wh]|max-[wh]|leading|tracking|whitespace|items|aspect|grid-cols|col-start)-/.exec(utility))) return m[1];
  if ((m = /^(justify|justify-items|self|content)-(start|end|center|between|around|evenly|stretch|normal|baseline)$/.exec(utility))) return m[1];
  if (/^text-(xs|sm|base|lg|[2-9]?xl)$/.test(utility)) return 'font-size';
  if (/^text-(left|center|right|justify|start|end)$/.test(utility)) return 'text-align';
  if (/^text-/.test(utility)) return 'text-color';
  if (/^font-(thin|extralight|light|normal|medium|semibold|bold|extrabold|black)$/.test(utility)) return 'font-weight';
  if (/^bg-/.test(utility)) return 'bg-color';
  if (/^border-(solid|dashed|dotted|double|hidden|none)$/.test(utility)) return 'border-style';
  if ((m = /^border(-[xytrblse])?(-(\d+|\[[\d.]+px\]))?$/.exec(utility))) return `border-width${m[1] ?? ''}`;
  if ((m = /^border(-[xytrblse])?-/.exec(utility))) return `border-color${m[1] ?? ''}`;
  if (/^ring(-\d+|-\[\d+px\])?$/.test(utility)) return 'ring-width';
  if (/^ring-/.test(utility)) return 'ring-color';
  if ((m = /^rounded(-[trblse]{1,2})?(-|$)/.exec(utility))) return `rounded${m[1] ?? ''}`;
  return undefined;
}

/** Groups a later utility overrides besides its own: `p-4` after `px-2` sets both sides again. */
const COVERS: Record<string, readonly string[]> = {
  p: ['px', 'py', 'pt', 'pr', 'pb', 'pl', 'ps', 'pe'],
  px: ['pr', 'pl', 'ps', 'pe'],
  py: ['pt', 'pb'],
  m: ['mx', 'my', 'mt', 'mr', 'mb', 'ml', 'ms', 'me'],
  mx: ['mr', 'ml', 'ms', 'me'],
  my: ['mt', 'mb'],
  gap: ['gap-x', 'gap-y'],
  size: ['w', 'h'],
  flex: ['shrink', 'grow'],
  // A font size sets the line height too (text-xl after leading-none).
  'font-size': ['leading'],
  rounded: ['rounded-t', 'rounded-r', 'rounded-b', 'rounded-l', 'rounded-tl', 'rounded-tr', 'rounded-br', 'rounded-bl', 'rounded-s', 'rounded-e'],
  'border-width': ['border-width-x', 'border-width-y', 'border-width-t', 'border-width-r', 'border-width-b', 'border-width-l'],
  'border-color': ['border-color-x', 'border-color-y', 'border-color-t', 'border-color-r', 'border-color-b', 'border-color-l'],
};

/** `md:hover:px-2` -> ['md:hover:', 'px-2']: the variants (split outside brackets) and the utility. */
function splitVariants(name: string): [string, string] {
  let depth = 0;
  let end = 0;
  for (let i = 0; i < name.length; i++) {
    const c = name[i];
    if (c === '[' || c === '(') depth++;
    else if (c === ']' || c === ')') depth--;
    else if (c === ':' && depth === 0) end = i + 1;
  }
  return [name.slice(0, end), name.slice(end).replace(/^!|!$/g, '').replace(/^-/, '')];
}

/** The lists resolved so far: a screen draws the same few again and again. */
const resolved = new Map<string, string>();

/**
 * Joins class names (clsx's rules); of two utilities that set the same property under the
 * same variants the later wins and the earlier is left out, as tailwind-merge does: a
 * component's caller overrides what the component sets (`<Button className="w-full">`).
 */
export function cn(...inputs: ClassValue[]): string {
  const joined = clsx(inputs);
  let merged = resolved.get(joined);
  if (merged === undefined) {
    if (resolved.size >= 500) resolved.clear();
    merged = resolve(joined);
    resolved.set(joined, merged);
  }
  return merged;
}

function resolve(joined: string): string {
  const names = joined.split(' ').filter(Boolean);
  const taken = new Set<string>();
  const kept: string[] = [];
  for (let i = names.length - 1; i >= 0; i--) {
    const name = names[i]!;
    const [variants, utility] = splitVariants(name);
    const group = groupOf(utility);
    if (group) {
      const key = `${variants}${/^!|!$/.test(name.slice(variants.length)) ? '!' : ''}${group}`;
      if (taken.has(key)) continue;
      taken.add(key);
      for (const covered of COVERS[group] ?? []) taken.add(`${variants}${covered}`);
    }
    kept.push(name);
  }
  return kept.reverse().join(' ');
}
