/** Typed keys: `t('…')` accepts only a key of the English catalogue (the reference every catalogue matches). */
import 'i18next';
import type en from './en.json';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
    returnNull: false;
    strictKeyChecks: true;
  }
}
