/** /files: the general document list for any signed-in user. A placeholder until the document work lands. */
import { Empty, Typography } from 'antd';
import { PortalHeader } from '../components/PortalHeader.tsx';
import { PortalLayout } from '../components/PortalLayout.tsx';
import { useLogOff } from '../components/useLogOff.ts';

export function Files() {
  const logOff = useLogOff('logout-screen');
  return (
    <PortalLayout header={<PortalHeader onLogOff={logOff} />}>
      <Typography.Title level={2}>My documents</Typography.Title>
      <Empty description='No documents found' />
    </PortalLayout>
  );
}
