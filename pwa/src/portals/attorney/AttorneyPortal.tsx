/**
 * /portal/attorney/*: / and /documents show the attorney's documents, /representatives the representatives who
 * named them (Accept / Remove); anything else goes back to /portal/attorney (spec section 2).
 */
import { FileTextOutlined, TeamOutlined, UploadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { Navigate, Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import { PortalHeader } from '../../components/PortalHeader.tsx';
import { PortalLayout } from '../../components/PortalLayout.tsx';
import { useLogOff } from '../../components/useLogOff.ts';
import { ROLE_HOME } from '../../lib/routing.ts';
import { AttorneyDocuments } from './AttorneyDocuments.tsx';
import { RepresentativesScreen } from './RepresentativesScreen.tsx';

const REPRESENTATIVES_PATH = `${ROLE_HOME.attorney}/representatives`;

export function AttorneyPortal() {
  const logOff = useLogOff('logout-screen');
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [uploadOpen, setUploadOpen] = useState(false);
  const onRepresentatives = pathname.startsWith(REPRESENTATIVES_PATH);
  const actions = (
    <>
      {onRepresentatives
        ? (
          <Button icon={<FileTextOutlined />} onClick={() => navigate(ROLE_HOME.attorney)}>
            My Documents
          </Button>
        )
        : (
          <>
            <Button type='primary' icon={<UploadOutlined />} onClick={() => setUploadOpen(true)}>
              Upload New Document
            </Button>
            <Button icon={<TeamOutlined />} onClick={() => navigate(REPRESENTATIVES_PATH)}>
              Representatives
            </Button>
          </>
        )}
    </>
  );
  const documents = <AttorneyDocuments uploadOpen={uploadOpen} onUploadClose={() => setUploadOpen(false)} />;
  return (
    <PortalLayout header={<PortalHeader subtitle='Attorney Portal' actions={actions} onLogOff={logOff} />}>
      <Routes>
        <Route index element={documents} />
        <Route path='documents' element={documents} />
        <Route path='representatives' element={<RepresentativesScreen />} />
        <Route path='*' element={<Navigate to={ROLE_HOME.attorney} replace />} />
      </Routes>
    </PortalLayout>
  );
}
