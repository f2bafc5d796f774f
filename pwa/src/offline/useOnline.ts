/** The browser's online flag (connectivity.ts) as React state. */
import { useSyncExternalStore } from 'react';
import { isOnline, onConnectivityChange } from './connectivity.ts';

export function useOnline(): boolean {
  return useSyncExternalStore((notify) => onConnectivityChange(() => notify()), isOnline, () => true);
}
