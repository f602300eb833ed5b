/**
 * A tiny external store over one localStorage key, for useSyncExternalStore.
 * The snapshot is re-derived whenever the stored text changes, so writes from other
 * tabs (the `storage` event) and from tests show up without extra wiring.
 */
export type LocalStorageStore<T> = {
  get: () => T;
  /**
   * The value a page drawn on the server showed (the fallback: the server has no
   * localStorage), for useSyncExternalStore's server snapshot: hydration starts from the
   * page as drawn, and React then draws the stored value.
   */
  initial: () => T;
  set: (value: T) => void;
  remove: () => void;
  subscribe: (listener: () => void) => () => void;
};

/** The stored text, or undefined when storage cannot be read at all. */
function readRaw(key: string): string | null | undefined {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return undefined;
  }
}

export function createLocalStorageStore<T>(
  key: string,
  parse: (value: unknown) => T | null,
  fallback: T,
): LocalStorageStore<T> {
  const listeners = new Set<() => void>();
  // Storage can be disabled or full (privacy modes); then the value lives in memory
  // for this tab only.
  let memoryRaw: string | null = null;
  let memoryOnly = false;
  let lastRaw: string | null | undefined;
  let lastValue: T = fallback;

  const notify = () => {
    for (const listener of listeners) listener();
  };

  const get = (): T => {
    const stored = memoryOnly ? undefined : readRaw(key);
    const raw = stored === undefined ? memoryRaw : stored;
    if (raw === lastRaw) return lastValue;
    lastRaw = raw;
    if (raw === null) {
      lastValue = fallback;
      return lastValue;
    }
    try {
      lastValue = parse(JSON.parse(raw)) ?? fallback;
    } catch {
      lastValue = fallback;
    }
    return lastValue;
  };

  const set = (value: T) => {
    const raw = JSON.stringify(value);
    memoryRaw = raw;
    try {
      window.localStorage.setItem(key, raw);
    } catch {
      memoryOnly = true;
    }
    notify();
  };

  const remove = () => {
    memoryRaw = null;
    try {
      window.localStorage.removeItem(key);
    } catch {
      memoryOnly = true;
    }
    notify();
  };

  const onStorage = (event: StorageEvent) => {
    if (event.key === key || event.key === null) notify();
  };

  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    if (listeners.size === 1) window.addEventListener('storage', onStorage);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) window.removeEventListener('storage', onStorage);
    };
  };

  return { get, initial: () => fallback, set, remove, subscribe };
}
