/** The representative portal, served at /representative and at /portal/representative/* (spec section 2). */
import { UploadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { PortalHeader } from '../../components/PortalHeader.tsx';
import { PortalLayout } from '../../components/PortalLayout.tsx';
import { useLogOff } from '../../components/useLogOff.ts';
import { RepresentativeDocuments } from './RepresentativeDocuments.tsx';

export function RepresentativePortal() {
  const logOff = useLogOff('to-login');
  const [uploadOpen, setUploadOpen] = useState(false);
  const upload = (
    <Button type='primary' icon={<UploadOutlined />} onClick={() => setUploadOpen(true)}>
      Upload New Document
    </Button>
  );
  return (
    <PortalLayout
      header={<PortalHeader subtitle='Representative Portal' actions={upload} onLogOff={logOff} />}
    >
      <RepresentativeDocuments uploadOpen={uploadOpen} onUploadClose={() => setUploadOpen(false)} />
    </PortalLayout>
  );
}
