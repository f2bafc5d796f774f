/** The representative portal, served at /representative and at /portal/representative/* (spec section 2). */
import { PortalHeader } from '../../components/PortalHeader.tsx';
import { PortalLayout } from '../../components/PortalLayout.tsx';
import { useLogOff } from '../../components/useLogOff.ts';
import { RepresentativeDocuments } from './RepresentativeDocuments.tsx';

export function RepresentativePortal() {
  const logOff = useLogOff('to-login');
  return (
    <PortalLayout header={<PortalHeader subtitle='Representative Portal' onLogOff={logOff} />}>
      <RepresentativeDocuments />
    </PortalLayout>
  );
}
