/**
 * antd, for the screens that use it: the back office (admin and approver portals, /files), registration and the password change, and the viewer. Loaded on demand (App.tsx), so the tablet's
 * path (sign-in, the offender's list, the lock screen) carries none of it (at most 200 KB of
 * JavaScript before the viewer opens). Inside it, toasts are antd's messages (components/useToast.ts).
 */
import { App as AntApp, ConfigProvider, type ThemeConfig } from 'antd';
import enUS from 'antd/locale/en_US';
import esES from 'antd/locale/es_ES';
import type { Locale } from 'antd/es/locale';
import dayjs from 'dayjs';
import 'dayjs/locale/es';
import { type ReactNode, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Language } from '../i18n/i18n.ts';
import { Outlet } from 'react-router-dom';
import { staleKinds, TOAST_MAX_COUNT, toastKey, type ToastKind, toastOptions } from '../lib/toast.ts';
import { theme } from '../theme.ts';
import { TABLET_THEME } from './tabletTheme.ts';
import { type Toast, ToastContext } from './useToast.ts';

/**
 * useToast inside the shell: antd's App-scoped message API, keyed by kind and words (lib/toast.ts) so a repeat
 * replaces its twin, and a success takes away the errors shown before it.
 */
function AntdToasts({ children }: { children: ReactNode }) {
  const { message } = AntApp.useApp();
  const shown = useRef(new Map<string, ToastKind>());
  const toast = useMemo<Toast>(() => {
    const show = (kind: 'success' | 'error' | 'info', text: string, seconds?: number) => {
      for (const [key, shownKind] of shown.current) {
        if (staleKinds(kind).includes(shownKind)) {
          message.destroy(key);
          shown.current.delete(key);
        }
      }
      const key = toastKey(kind, text);
      shown.current.set(key, kind);
      void message.open({
        type: kind,
        key,
        ...toastOptions(kind, text, seconds),
        onClose: () => shown.current.delete(key),
      });
    };
    return {
      success: (text, seconds) => show('success', text, seconds),
      error: (text, seconds) => show('error', text, seconds),
      info: (text, seconds) => show('info', text, seconds),
    };
  }, [message]);
  return <ToastContext.Provider value={toast}>{children}</ToastContext.Provider>;
}

/**
 * antd's own words (a modal's Cancel, the date picker's months, the upload list's Remove file) and dayjs's
 * month and day names, in the language shown: Spanish from antd's es_ES and dayjs's 'es'.
 */
const ANTD_LOCALES: Record<Language, { antd: Locale; dayjs: string }> = {
  en: { antd: enUS, dayjs: 'en' },
  es: { antd: esES, dayjs: 'es' },
};

/**
 * The app's antd theme and locale, nothing else: for antd pieces loaded on demand inside a light page (the
 * sender portals' Upload modal and Representatives screen), whose toasts stay the page's light ones.
 */
export function AntdTheme({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const locale = ANTD_LOCALES[i18n.language as Language] ?? ANTD_LOCALES.en;
  // dayjs keeps one global locale: the date pickers' calendars read it as they render.
  if (dayjs.locale() !== locale.dayjs) dayjs.locale(locale.dayjs);
  return <ConfigProvider locale={locale.antd} theme={theme}>{children}</ConfigProvider>;
}

/** The app's antd theme around `children`; `tablet`: every control 44 px (TABLET_THEME). */
export function AntdFrame({ tablet = false, children }: { tablet?: boolean; children: ReactNode }) {
  const content = (
    <AntApp message={{ maxCount: TOAST_MAX_COUNT }}>
      <AntdToasts>{children}</AntdToasts>
    </AntApp>
  );
  return (
    <AntdTheme>
      {tablet ? <ConfigProvider theme={TABLET_THEME as ThemeConfig}>{content}</ConfigProvider> : content}
    </AntdTheme>
  );
}

/** A layout route: its child routes inside AntdFrame. */
export default function AntdShell() {
  return (
    <AntdFrame>
      <Outlet />
    </AntdFrame>
  );
}
