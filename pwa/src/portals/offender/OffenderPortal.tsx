/**
 * /portal/offender/*: / and /documents show the document list, /view/:fileUrl
 * the viewer (the parameter is the document id), anything else goes back to
 * /portal/offender (spec section 2). Everything in it is sized for the
 * facility tablet it runs on (TABLET_THEME).
 */
import { ConfigProvider } from 'antd';
import { Navigate, Route, Routes, useParams } from 'react-router-dom';
import { PortalHeader } from '../../components/PortalHeader.tsx';
import { PortalLayout } from '../../components/PortalLayout.tsx';
import { useLogOff } from '../../components/useLogOff.ts';
import { ROLE_HOME } from '../../lib/routing.ts';
import { storage } from '../../lib/storage.ts';
import { PdfViewer } from '../../viewer/PdfViewer.tsx';
import { OffenderDocuments } from './OffenderDocuments.tsx';
import { TABLET_THEME } from '../../components/tabletTheme.ts';

function OffenderViewer() {
  const { fileUrl } = useParams();
  return <PdfViewer documentId={fileUrl} />;
}

export function OffenderPortal() {
  const logOff = useLogOff('logout-screen');
  const header = (
    <PortalHeader
      onLogOff={logOff}
      details={
        <p className='portal-details'>
          DOC ID Number: <strong>{storage.getDocId() ?? ''}</strong>
        </p>
      }
    />
  );
  return (
    <ConfigProvider theme={TABLET_THEME}>
      <PortalLayout header={header}>
        <Routes>
          <Route index element={<OffenderDocuments />} />
          <Route path='documents' element={<OffenderDocuments />} />
          <Route path='view/:fileUrl' element={<OffenderViewer />} />
          <Route path='*' element={<Navigate to={ROLE_HOME.offender} replace />} />
        </Routes>
      </PortalLayout>
    </ConfigProvider>
  );
}
