/**
 * /portal/attorney/*: / and /documents show the attorney's documents, anything
 * else goes back to /portal/attorney (spec section 2).
 */
import { UploadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { PortalHeader } from '../../components/PortalHeader.tsx';
import { PortalLayout } from '../../components/PortalLayout.tsx';
import { useLogOff } from '../../components/useLogOff.ts';
import { ROLE_HOME } from '../../lib/routing.ts';
import { AttorneyDocuments } from './AttorneyDocuments.tsx';

export function AttorneyPortal() {
  const logOff = useLogOff('logout-screen');
  const [uploadOpen, setUploadOpen] = useState(false);
  const upload = (
    <Button type='primary' icon={<UploadOutlined />} onClick={() => setUploadOpen(true)}>
      Upload New Document
    </Button>
  );
  const documents = <AttorneyDocuments uploadOpen={uploadOpen} onUploadClose={() => setUploadOpen(false)} />;
  return (
    <PortalLayout header={<PortalHeader subtitle='Attorney Portal' actions={upload} onLogOff={logOff} />}>
      <Routes>
        <Route index element={documents} />
        <Route path='documents' element={documents} />
        <Route path='*' element={<Navigate to={ROLE_HOME.attorney} replace />} />
      </Routes>
    </PortalLayout>
  );
}
