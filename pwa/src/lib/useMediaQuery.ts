/**
 * Whether a CSS media query matches, kept current as the window turns or
 * resizes. Read synchronously on the first render (no flash of the other
 * layout), unlike antd's Grid.useBreakpoint, which answers only after an effect.
 */
import { useCallback, useSyncExternalStore } from 'react';

export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback((onChange: () => void) => {
    const list = globalThis.matchMedia(query);
    list.addEventListener('change', onChange);
    return () => list.removeEventListener('change', onChange);
  }, [query]);
  return useSyncExternalStore(subscribe, () => globalThis.matchMedia(query).matches, () => false);
}
