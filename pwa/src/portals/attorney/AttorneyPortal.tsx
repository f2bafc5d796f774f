/**
 * /portal/attorney/*: / and /documents show the attorney's documents, anything
 * else goes back to /portal/attorney (spec section 2).
 */
import { Navigate, Route, Routes } from 'react-router-dom';
import { PortalHeader } from '../../components/PortalHeader.tsx';
import { PortalLayout } from '../../components/PortalLayout.tsx';
import { useLogOff } from '../../components/useLogOff.ts';
import { ROLE_HOME } from '../../lib/routing.ts';
import { AttorneyDocuments } from './AttorneyDocuments.tsx';

export function AttorneyPortal() {
  const logOff = useLogOff('logout-screen');
  return (
    <PortalLayout header={<PortalHeader subtitle='Attorney Portal' onLogOff={logOff} />}>
      <Routes>
        <Route index element={<AttorneyDocuments />} />
        <Route path='documents' element={<AttorneyDocuments />} />
        <Route path='*' element={<Navigate to={ROLE_HOME.attorney} replace />} />
      </Routes>
    </PortalLayout>
  );
}
