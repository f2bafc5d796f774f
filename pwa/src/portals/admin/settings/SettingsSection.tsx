/**
 * The Settings section: the settings themselves and, as a second tab at settings/email-outbox, the e-mail
 * outbox, whose delivery those settings (category email) control.
 */
import { Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { ROLE_HOME } from '../../../lib/routing.ts';
import { EmailOutboxScreen } from '../audit/EmailOutboxScreen.tsx';
import { SettingsScreen } from './SettingsScreen.tsx';

const BASE = `${ROLE_HOME.admin}/settings`;
const OUTBOX = 'email-outbox';

export function SettingsSection() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const active = pathname.replace(/\/+$/, '').endsWith(`/${OUTBOX}`) ? OUTBOX : 'settings';
  return (
    <section aria-labelledby='settings-heading'>
      <Typography.Title level={2} id='settings-heading' className='section-heading'>
        {t('settings.title')}
      </Typography.Title>
      <Tabs
        activeKey={active}
        onChange={(key) => navigate(key === OUTBOX ? `${BASE}/${OUTBOX}` : BASE)}
        destroyOnHidden
        items={[
          { key: 'settings', label: t('settings.tab'), children: <SettingsScreen /> },
          { key: OUTBOX, label: t('settings.outboxTab'), children: <EmailOutboxScreen /> },
        ]}
      />
    </section>
  );
}
