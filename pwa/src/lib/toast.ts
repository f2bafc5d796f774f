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

/** A toast's identity: the same words of the same kind are one toast, shown again rather than stacked. */
export function toastKey(kind: ToastKind, text: string): string {
  return `${kind}:${text}`;
}

/**
 * The toasts a new one of `kind` makes stale, and so takes away: a success answers the error or warning shown
 * before it (a retry that worked), which would otherwise stand beside it saying the opposite.
 */
export function staleKinds(kind: ToastKind): readonly ToastKind[] {
  return kind === 'success' ? ['error', 'warning'] : [];
}

/** The list shown once `incoming` joins `list`: its own repeat and what it makes stale leave, the oldest give way. */
export function withToast<T extends { kind: ToastKind; text: string }>(list: readonly T[], incoming: T): T[] {
  const stale = staleKinds(incoming.kind);
  const key = toastKey(incoming.kind, incoming.text);
  return [
    ...list.filter((t) => toastKey(t.kind, t.text) !== key && !stale.includes(t.kind)),
    incoming,
  ].slice(-TOAST_MAX_COUNT);
}
