/**
 * The light toasts of the tablet's path (components/useToast.ts): spec section 9's durations and limit, the
 * newest at the bottom of a stack at the foot of the window, where it covers neither the header (Log Off, the
 * language, Larger text) nor the heading, read out by screen readers (a live region). No
 * antd: the sign-in page and the offender's list must stay within the tablet's 200 KB of JavaScript.
 */
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { type ToastKind, toastOptions, withToast } from '../lib/toast.ts';
import { type Toast, ToastContext } from './useToast.ts';

interface Shown {
  id: number;
  kind: ToastKind;
  text: string;
}

const ICONS: Record<ToastKind, string> = { success: '✓', error: '!', info: 'i', warning: '!' };

export function ToastProvider({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState<Shown[]>([]);
  const next = useRef(0);
  const timers = useRef(new Set<number>());

  const show = useCallback((kind: ToastKind, text: string, seconds?: number) => {
    const id = ++next.current;
    const { duration } = toastOptions(kind, text, seconds);
    // Spec section 9: at most 20 at once, the oldest gives way; a repeat replaces its twin, a success its errors.
    setShown((list) => withToast(list, { id, kind, text }));
    const timer = window.setTimeout(() => {
      timers.current.delete(timer);
      setShown((list) => list.filter((toast) => toast.id !== id));
    }, duration * 1000);
    timers.current.add(timer);
  }, []);

  useEffect(() => () => timers.current.forEach((timer) => window.clearTimeout(timer)), []);

  const toast = useMemo<Toast>(() => ({
    success: (text, seconds) => show('success', text, seconds),
    error: (text, seconds) => show('error', text, seconds),
    info: (text, seconds) => show('info', text, seconds),
  }), [show]);

  return (
    <ToastContext.Provider value={toast}>
      {children}
      <div className='toasts' aria-live='polite' aria-atomic='false'>
        {shown.map((item) => (
          <div key={item.id} className={`toast toast-${item.kind}`}>
            <span className='toast-icon' aria-hidden='true'>{ICONS[item.kind]}</span>
            <span>{item.text}</span>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}
