/** Providers and the route tree of spec section 2; nothing else. */
import { App as AntApp, ConfigProvider, Flex, Spin } from 'antd';
import enUS from 'antd/locale/en_US';
import { lazy, Suspense } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { AppConfigProvider } from './components/AppConfigProvider.tsx';
import { PortalRedirect } from './components/PortalRedirect.tsx';
import { RequireAuth } from './components/RequireAuth.tsx';
import { SessionEvents } from './components/SessionEvents.tsx';
import { StaffOfflineNotice } from './offline/StaffOfflineNotice.tsx';
import { TABLET_THEME } from './components/tabletTheme.ts';
import { useMediaQuery } from './lib/useMediaQuery.ts';
import { PATHS } from './lib/routing.ts';
import { TOAST_MAX_COUNT } from './lib/toast.ts';
import { theme } from './theme.ts';
import { Login } from './auth/Login.tsx';
import { Logout } from './auth/Logout.tsx';

// Signed-in screens (and the signed-out pages a tablet rarely shows) load on demand: the sign-in page stays small.
const Register = lazy(() => import('./auth/Register.tsx').then((m) => ({ default: m.Register })));
const Unauthorized = lazy(() => import('./auth/Unauthorized.tsx').then((m) => ({ default: m.Unauthorized })));
const SetPassword = lazy(() => import('./auth/SetPassword.tsx').then((m) => ({ default: m.SetPassword })));
const Files = lazy(() => import('./mail/Files.tsx').then((m) => ({ default: m.Files })));
const PdfViewer = lazy(() => import('./viewer/PdfViewer.tsx').then((m) => ({ default: m.PdfViewer })));
const OffenderPortal = lazy(() =>
  import('./portals/offender/OffenderPortal.tsx').then((m) => ({ default: m.OffenderPortal }))
);
const AttorneyPortal = lazy(() =>
  import('./portals/attorney/AttorneyPortal.tsx').then((m) => ({ default: m.AttorneyPortal }))
);
const RepresentativePortal = lazy(() =>
  import('./portals/representative/RepresentativePortal.tsx').then((m) => ({
    default: m.RepresentativePortal,
  }))
);
const AdminPortal = lazy(() =>
  import('./portals/admin/AdminPortal.tsx').then((m) => ({ default: m.AdminPortal }))
);
const ApproverPortal = lazy(() =>
  import('./portals/approver/ApproverPortal.tsx').then((m) => ({ default: m.ApproverPortal }))
);

/** The viewer pop-up is a window of its own: on a touch screen (a facility tablet) its controls get the tablet's 44 px too. */
function PopupViewer() {
  const touch = useMediaQuery('(pointer: coarse)');
  return (
    <ConfigProvider theme={touch ? TABLET_THEME : undefined}>
      <PdfViewer />
    </ConfigProvider>
  );
}

function Loading() {
  return (
    <Flex align='center' justify='center' className='page-loading' role='status'>
      <Spin size='large' description='Loading...' />
    </Flex>
  );
}

export function App() {
  return (
    <ConfigProvider locale={enUS} theme={theme}>
      <AntApp message={{ maxCount: TOAST_MAX_COUNT }}>
        <AppConfigProvider>
          <BrowserRouter>
            <SessionEvents />
            <StaffOfflineNotice />
            <Suspense fallback={<Loading />}>
              <Routes>
                <Route path={PATHS.root} element={<Navigate to={PATHS.login} replace />} />
                <Route path={PATHS.login} element={<Login />} />
                <Route path={PATHS.register} element={<Register />} />
                <Route path={PATHS.logout} element={<Logout />} />
                <Route path={PATHS.unauthorized} element={<Unauthorized />} />
                <Route element={<RequireAuth />}>
                  <Route path={PATHS.setPassword} element={<SetPassword />} />
                  <Route path={PATHS.files} element={<Files />} />
                  <Route path='/pdfViewer/:documentId' element={<PopupViewer />} />
                  <Route path='/pdfViewer' element={<PopupViewer />} />
                  <Route path={PATHS.portal} element={<PortalRedirect />} />
                </Route>
                <Route element={<RequireAuth roles={['offender']} />}>
                  <Route path='/portal/offender/*' element={<OffenderPortal />} />
                </Route>
                <Route element={<RequireAuth roles={['attorney']} />}>
                  <Route path='/portal/attorney/*' element={<AttorneyPortal />} />
                </Route>
                <Route element={<RequireAuth roles={['representative']} />}>
                  <Route path='/portal/representative/*' element={<RepresentativePortal />} />
                  <Route path='/representative/*' element={<RepresentativePortal />} />
                </Route>
                <Route element={<RequireAuth roles={['admin']} />}>
                  <Route path='/portal/admin/*' element={<AdminPortal />} />
                </Route>
                <Route element={<RequireAuth roles={['approver']} />}>
                  <Route path='/portal/approver/*' element={<ApproverPortal />} />
                </Route>
                <Route path='*' element={<Navigate to={PATHS.root} replace />} />
              </Routes>
            </Suspense>
          </BrowserRouter>
        </AppConfigProvider>
      </AntApp>
    </ConfigProvider>
  );
}
