/** /portal/approver/*: 'Attorney Registration System' with the pending registrations. */
import { useTranslation } from 'react-i18next';
import { Navigate, Route, Routes } from 'react-router-dom';
import { PortalHeader } from '../../components/PortalHeader.tsx';
import { PortalLayout } from '../../components/PortalLayout.tsx';
import { useLogOff } from '../../components/useLogOff.ts';
import { ROLE_HOME } from '../../lib/routing.ts';
import { PendingRegistrations } from './PendingRegistrations.tsx';

export function ApproverPortal() {
  const { t } = useTranslation();
  const logOff = useLogOff('logout-screen');
  return (
    <PortalLayout header={<PortalHeader subtitle={t('approver.subtitle')} onLogOff={logOff} />}>
      <Routes>
        <Route index element={<PendingRegistrations />} />
        <Route path='*' element={<Navigate to={ROLE_HOME.approver} replace />} />
      </Routes>
    </PortalLayout>
  );
}
