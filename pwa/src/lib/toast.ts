/**
 * Toast rules of spec section 9: success 2 s, error 4 s, at most 20 at a time.
 * components/useToast.ts applies them: the light toasts on the tablet's path, antd's messages in the antd shell.
 */

export type ToastKind = 'success' | 'error' | 'info' | 'warning';

/** Seconds a toast of each kind stays up. Info and warning follow the error time: both are read, not glanced at. */
export const TOAST_SECONDS: Record<ToastKind, number> = {
  success: 2,
  error: 4,
  info: 4,
  warning: 4,
};

/** Spec section 9: at most 20 toasts at once; the oldest gives way. */
export const TOAST_MAX_COUNT = 20;

export interface ToastOptions {
  content: string;
  duration: number;
}

/** The options of one toast (antd's message takes them as they are). `seconds` overrides the default (e.g. a password to copy). */
export function toastOptions(kind: ToastKind, content: string, seconds?: number): ToastOptions {
  return { content, duration: seconds ?? TOAST_SECONDS[kind] };
}
