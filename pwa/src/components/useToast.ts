/** Toasts with the spec's durations (lib/toast.ts) through antd's App-scoped message API. */
import { App } from 'antd';
import { useMemo } from 'react';
import { toastOptions } from '../lib/toast.ts';

export interface Toast {
  success(text: string, seconds?: number): void;
  error(text: string, seconds?: number): void;
  info(text: string, seconds?: number): void;
}

export function useToast(): Toast {
  const { message } = App.useApp();
  return useMemo(
    () => ({
      success: (text, seconds) => void message.success(toastOptions('success', text, seconds)),
      error: (text, seconds) => void message.error(toastOptions('error', text, seconds)),
      info: (text, seconds) => void message.info(toastOptions('info', text, seconds)),
    }),
    [message],
  );
}
