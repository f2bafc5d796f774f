/**
 * Toasts with the spec's durations (lib/toast.ts). Which toasts answer depends on where the screen sits: the
 * tablet's path (sign-in, the offender's portal, /logout) gets the light ones of Toasts.tsx, with no antd on it
 * (the tablet's 200 KB budget); screens inside the antd shell (AntdShell.tsx: the back office, registration, the viewer)
 * get antd's message API, as the back office's own tests expect.
 */
import { createContext, useContext } from 'react';

export interface Toast {
  success(text: string, seconds?: number): void;
  error(text: string, seconds?: number): void;
  info(text: string, seconds?: number): void;
}

/** The toasts in reach of a screen; App.tsx provides the light ones at the root. */
export const ToastContext = createContext<Toast | null>(null);

export function useToast(): Toast {
  const toast = useContext(ToastContext);
  if (!toast) throw new Error('useToast needs a toast provider above it (components/Toasts.tsx)');
  return toast;
}
