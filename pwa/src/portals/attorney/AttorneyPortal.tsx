/**
 * /portal/attorney/*: / and /documents show the attorney's documents, /representatives the representatives who
 * named them (Accept / Remove); anything else goes back to /portal/attorney (spec section 2).
 *
 * Outside the antd shell (App.tsx): the header and the list are plain markup, so the list paints without antd
 * . The Representatives screen (an antd table and Popconfirm) and the Upload modal load on demand.
 */
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import { PortalHeader } from '../../components/PortalHeader.tsx';
import { PortalLayout } from '../../components/PortalLayout.tsx';
import { useLogOff } from '../../components/useLogOff.ts';
import { ROLE_HOME } from '../../lib/routing.ts';
import { AttorneyDocuments } from './AttorneyDocuments.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { listRepresentatives } from './representativesApi.ts';

const RepresentativesScreen = lazy(() => import('./RepresentativesScreen.tsx'));

const REPRESENTATIVES_PATH = `${ROLE_HOME.attorney}/representatives`;

export function AttorneyPortal() {
  const { t } = useTranslation();
  const logOff = useLogOff('logout-screen');
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [uploadOpen, setUploadOpen] = useState(false);
  const onRepresentatives = pathname.startsWith(REPRESENTATIVES_PATH);
  const [waiting, setWaiting] = useState(0);
  // How many representatives wait for this attorney's acceptance: told on the Representatives button, so a
  // representative's documents do not go unshared because nobody looked.
  const countWaiting = useCallback(() => {
    listRepresentatives().then(
      (links) => setWaiting(links.filter((link) => link.link_status === 'pending').length),
      () => {},
    );
  }, []);
  useEffect(countWaiting, [countWaiting]);
  const actions = (
    <>
      {onRepresentatives
        ? (
          <button type='button' className='btn' onClick={() => navigate(ROLE_HOME.attorney)}>
            {t('attorney.myDocuments')}
          </button>
        )
        : (
          <>
            <button type='button' className='btn btn-primary' onClick={() => setUploadOpen(true)}>
              {t('attorney.upload')}
            </button>
            <button type='button' className='btn' onClick={() => navigate(REPRESENTATIVES_PATH)}>
              {t('attorney.representatives')}
              {waiting > 0 && (
                <>
                  <span className='count-badge' aria-hidden='true'>{waiting}</span>
                  <span className='visually-hidden'>{t('attorney.waiting', { count: waiting })}</span>
                </>
              )}
            </button>
          </>
        )}
    </>
  );
  const documents = <AttorneyDocuments uploadOpen={uploadOpen} onUploadClose={() => setUploadOpen(false)} />;
  return (
    <PortalLayout
      header={<PortalHeader subtitle={t('attorney.subtitle')} actions={actions} onLogOff={logOff} />}
    >
      <Routes>
        <Route index element={documents} />
        <Route path='documents' element={documents} />
        <Route
          path='representatives'
          element={
            <Suspense fallback={<Spinner />}>
              <RepresentativesScreen onChange={countWaiting} />
            </Suspense>
          }
        />
        <Route path='*' element={<Navigate to={ROLE_HOME.attorney} replace />} />
      </Routes>
    </PortalLayout>
  );
}
