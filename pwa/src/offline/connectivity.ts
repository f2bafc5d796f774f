/**
 * Whether the browser says it has a network (navigator.onLine and its events). Only a hint: a facility network
 * can be "up" and still not answer, so every caller also treats a request that fails to reach the server as
 * offline (lib/api.ts: ApiError status 0). The hint decides what to try first; the failure decides what to show.
 * Plain functions (no React): the offline modules use it, and their tests run without a DOM or permissions.
 */
function current(): boolean {
  return typeof navigator === 'undefined' ? true : navigator.onLine !== false;
}

export function isOnline(): boolean {
  return current();
}

/** Calls `listener` whenever the browser goes online or offline; returns the way to stop. */
export function onConnectivityChange(listener: (online: boolean) => void): () => void {
  if (typeof window === 'undefined') return () => {};
  const onOnline = () => listener(true);
  const onOffline = () => listener(false);
  window.addEventListener('online', onOnline);
  window.addEventListener('offline', onOffline);
  return () => {
    window.removeEventListener('online', onOnline);
    window.removeEventListener('offline', onOffline);
  };
}
