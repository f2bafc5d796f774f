/** A sidebar section whose screen has not been built yet. */
import { Empty, Typography } from 'antd';

export function AdminSectionPlaceholder({ title }: { title: string }) {
  return (
    <section aria-labelledby='admin-section'>
      <Typography.Title level={2} id='admin-section' className='section-heading'>
        {title}
      </Typography.Title>
      <Empty description='This section is not available yet.' />
    </section>
  );
}
