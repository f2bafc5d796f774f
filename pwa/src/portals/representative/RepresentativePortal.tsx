/**
 * The representative portal, served at /representative and at /portal/representative/* (spec section 2). Outside
 * the antd shell (App.tsx): plain markup, the Upload modal loads on demand.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PortalHeader } from '../../components/PortalHeader.tsx';
import { PortalLayout } from '../../components/PortalLayout.tsx';
import { useLogOff } from '../../components/useLogOff.ts';
import { RepresentativeDocuments } from './RepresentativeDocuments.tsx';

export function RepresentativePortal() {
  const { t } = useTranslation();
  const logOff = useLogOff('to-login');
  const [uploadOpen, setUploadOpen] = useState(false);
  const upload = (
    <button type='button' className='btn btn-primary' onClick={() => setUploadOpen(true)}>
      {t('representative.upload')}
    </button>
  );
  return (
    <PortalLayout
      header={<PortalHeader subtitle={t('representative.subtitle')} actions={upload} onLogOff={logOff} />}
    >
      <RepresentativeDocuments uploadOpen={uploadOpen} onUploadClose={() => setUploadOpen(false)} />
    </PortalLayout>
  );
}
