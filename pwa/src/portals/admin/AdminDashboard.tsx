/** The admin portal's default view: the dashboard welcome. */
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { fullName } from '../../lib/format.ts';
import { storage } from '../../lib/storage.ts';

export function AdminDashboard() {
  const { t } = useTranslation();
  const stored = storage.readUser();
  const name = stored.ok ? fullName(stored.user.firstName, stored.user.lastName) : '';
  return (
    <section aria-labelledby='admin-dashboard'>
      <Typography.Title level={2} id='admin-dashboard' className='section-heading'>
        {name ? t('adminHome.welcomeNamed', { name }) : t('adminHome.welcome')}
      </Typography.Title>
      <Typography.Paragraph>
        {t('adminHome.intro')}
      </Typography.Paragraph>
    </section>
  );
}
