/** The admin portal's default view: the dashboard welcome. */
import { Typography } from 'antd';
import { fullName } from '../../lib/format.ts';
import { storage } from '../../lib/storage.ts';

export function AdminDashboard() {
  const stored = storage.readUser();
  const name = stored.ok ? fullName(stored.user.firstName, stored.user.lastName) : '';
  return (
    <section aria-labelledby='admin-dashboard'>
      <Typography.Title level={2} id='admin-dashboard' className='section-heading'>
        {name ? `Welcome, ${name}` : 'Welcome'}
      </Typography.Title>
      <Typography.Paragraph>
        Use the menu to manage users, entities, audit logs, system settings and the IP whitelist for offender
        access.
      </Typography.Paragraph>
    </section>
  );
}
