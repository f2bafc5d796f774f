/**
 * The header every portal shares: the department title ('{abbreviation}
 * Attorney/Client Mail'), an optional sub-heading, optional extra details and
 * buttons, the language switch (saved as the user's preference), and Log Off.
 * Plain markup styled in styles.css (no antd): the offender's tablet shows it
 * on a path that carries no antd.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import portalLogo from '../assets/portal-logo.svg';
import { Link, useLocation } from 'react-router-dom';
import { signOutEverywhere } from '../auth/authApi.ts';
import { PATHS } from '../lib/routing.ts';
import { storage } from '../lib/storage.ts';
import { portalTitle } from '../lib/config.ts';
import { useAppConfig } from './AppConfigProvider.tsx';
import { InlineIcon } from './InlineIcon.tsx';
import { useToast } from './useToast.ts';
import { LanguageSwitch } from '../i18n/LanguageSwitch.tsx';
import { chooseInPortal } from '../i18n/language.ts';
import type { Language } from '../i18n/i18n.ts';

export interface PortalHeaderProps {
  subtitle?: string;
  /** Shown under the titles (e.g. the offender's DOC ID Number). */
  details?: ReactNode;
  /** Buttons placed before Log Off. */
  actions?: ReactNode;
  /** Absent while the screen below offers the way out itself (the tablet's lock screen): one Log Off, not two. */
  onLogOff?(): void;
}

/** The log-off arrow (the path of antd's LogoutOutlined). */
const LOG_OFF_PATH =
  'M868 732h-70.3c-4.8 0-9.3 2.1-12.3 5.8-7 8.5-14.5 16.7-22.4 24.5a353.84 353.84 0 01-112.7 75.9A352.8 352.8 0 01512.4 866c-47.9 0-94.3-9.4-137.9-27.8a353.84 353.84 0 01-112.7-75.9 353.28 353.28 0 01-76-112.5C167.3 606.2 158 559.9 158 512s9.4-94.2 27.8-137.8c17.8-42.1 43.4-80 76-112.5s70.5-58.1 112.7-75.9c43.6-18.4 90-27.8 137.9-27.8 47.9 0 94.3 9.3 137.9 27.8 42.2 17.8 80.1 43.4 112.7 75.9 7.9 7.9 15.3 16.1 22.4 24.5 3 3.7 7.6 5.8 12.3 5.8H868c6.3 0 10.2-7 6.7-12.3C798 160.5 663.8 81.6 511.3 82 271.7 82.6 79.6 277.1 82 516.4 84.4 751.9 276.2 942 512.4 942c152.1 0 285.7-78.8 362.3-197.7 3.4-5.3-.4-12.3-6.7-12.3zm88.9-226.3L815 393.7c-5.3-4.2-13-.4-13 6.3v76H488c-4.4 0-8 3.6-8 8v56c0 4.4 3.6 8 8 8h314v76c0 6.7 7.8 10.5 13 6.3l141.9-112a8 8 0 000-12.6z';

export function PortalHeader({ subtitle, details, actions, onLogOff }: PortalHeaderProps) {
  const config = useAppConfig();
  const { t } = useTranslation();
  const toast = useToast();
  const { pathname } = useLocation();
  const onSecurity = pathname === PATHS.security;
  const stored = storage.readUser();
  // Staff manage their own second factors; an offender's tablet has none.
  const staff = stored.ok && ['attorney', 'representative', 'admin', 'approver'].includes(stored.user.role);
  async function chooseLanguage(language: Language) {
    // Shown at once either way; a preference the server could not keep lasts this session only.
    if (!(await chooseInPortal(language))) toast.error(t('language.notSaved'));
  }
  return (
    <header className='portal-header'>
      <div className='portal-header-row'>
        <div className='portal-header-titles'>
          <img src={portalLogo} alt='' width={48} height={48} />
          <div>
            <h1 className='portal-title'>{portalTitle(config)}</h1>
            {subtitle && <h2 className='portal-subtitle'>{subtitle}</h2>}
            {details}
          </div>
        </div>
        <div className='portal-header-actions'>
          <LanguageSwitch onChoose={chooseLanguage} />
          {actions}
          {staff && !onSecurity && (
            <Link className='btn' to={PATHS.security}>
              <span>{t('security.link')}</span>
            </Link>
          )}
          {onLogOff && (
            <>
              <button
                type='button'
                className='btn'
                onClick={async () => {
                  // Every session ends on the server first (other devices included); then this one wipes as usual.
                  await signOutEverywhere();
                  onLogOff();
                }}
              >
                <span>{t('common.signOutEverywhere')}</span>
              </button>
              <button type='button' className='btn' onClick={onLogOff}>
                <InlineIcon path={LOG_OFF_PATH} />
                <span>{t('common.logOff')}</span>
              </button>
            </>
          )}
        </div>
      </div>
    </header>
  );
}
