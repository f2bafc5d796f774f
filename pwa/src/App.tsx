/**
 * Providers and the route tree of spec section 2; nothing else. The tablet's path (sign-in, the offender's
 * portal, /logout) and the attorney's and representative's portals are plain React with the light toasts (their
 * lists paint without antd; each loads antd itself for its Upload modal or Representatives screen). Every other
 * screen sits inside the antd shell, loaded on demand with it (components/AntdShell.tsx): the offender's route
 * carries at most 200 KB of JavaScript before the viewer, since a facility's Wi-Fi is slow, and the lists aim at
 * Lighthouse ≥ 95).
 */
import i18next from 'i18next';
import { lazy, Suspense } from 'react';
import { I18nextProvider } from 'react-i18next';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router-dom';
import { AppConfigProvider } from './components/AppConfigProvider.tsx';
import { PortalRedirect } from './components/PortalRedirect.tsx';
import { RequireAuth } from './components/RequireAuth.tsx';
import { SessionEvents } from './components/SessionEvents.tsx';
import { Spinner } from './components/Spinner.tsx';
import { ToastProvider } from './components/Toasts.tsx';
import { StaffOfflineNotice } from './offline/StaffOfflineNotice.tsx';
import { PATHS } from './lib/routing.ts';
import { Login } from './auth/Login.tsx';
import { Logout } from './auth/Logout.tsx';

const PopupViewer = lazy(() => import('./components/PopupViewer.tsx'));
// Signed-in screens (and the signed-out pages a tablet rarely shows) load on demand: the sign-in page stays small.
const OffenderPortal = lazy(() =>
  import('./portals/offender/OffenderPortal.tsx').then((m) => ({ default: m.OffenderPortal }))
);
const AttorneyPortal = lazy(() =>
  import('./portals/attorney/AttorneyPortal.tsx').then((m) => ({ default: m.AttorneyPortal }))
);
const SecurityScreen = lazy(() =>
  import('./auth/SecurityScreen.tsx').then((m) => ({ default: m.SecurityScreen }))
);
const RepresentativePortal = lazy(() =>
  import('./portals/representative/RepresentativePortal.tsx').then((m) => ({
    default: m.RepresentativePortal,
  }))
);

/** The screens inside the antd shell, by the path they answer. */
const SCREENS = {
  register: () => import('./auth/Register.tsx'),
  unauthorized: () => import('./auth/Unauthorized.tsx'),
  setPassword: () => import('./auth/SetPassword.tsx'),
  files: () => import('./mail/Files.tsx'),
  receiptCheck: () => import('./mail/ReceiptCheck.tsx'),
  admin: () => import('./portals/admin/AdminPortal.tsx'),
  approver: () => import('./portals/approver/ApproverPortal.tsx'),
} as const;

const SCREEN_PATHS: [RegExp, keyof typeof SCREENS][] = [
  [/^\/register/, 'register'],
  [/^\/unauthorized/, 'unauthorized'],
  [/^\/set-password/, 'setPassword'],
  [/^\/files/, 'files'],
  [/^\/receipts\/check/, 'receiptCheck'],
  [/^\/portal\/admin/, 'admin'],
  [/^\/portal\/approver/, 'approver'],
];

/**
 * The antd shell, with the screen it is loaded for fetched beside it: one round trip for both rather than the
 * screen's chunk only once the shell has rendered (a screen reached later reuses the same import).
 */
const AntdShell = lazy(() => {
  const screen = SCREEN_PATHS.find(([path]) => path.test(window.location.pathname))?.[1];
  if (screen) void SCREENS[screen]().catch(() => {});
  return import('./components/AntdShell.tsx');
});
const ForgotPassword = lazy(() =>
  import('./auth/PasswordReset.tsx').then((m) => ({ default: m.ForgotPassword }))
);
const ResetPassword = lazy(() =>
  import('./auth/PasswordReset.tsx').then((m) => ({ default: m.ResetPassword }))
);
const Register = lazy(() => SCREENS.register().then((m) => ({ default: m.Register })));
const Unauthorized = lazy(() => SCREENS.unauthorized().then((m) => ({ default: m.Unauthorized })));
const SetPassword = lazy(() => SCREENS.setPassword().then((m) => ({ default: m.SetPassword })));
const Files = lazy(() => SCREENS.files().then((m) => ({ default: m.Files })));
const ReceiptCheck = lazy(() => SCREENS.receiptCheck().then((m) => ({ default: m.ReceiptCheck })));
const AdminPortal = lazy(() => SCREENS.admin().then((m) => ({ default: m.AdminPortal })));
const ApproverPortal = lazy(() => SCREENS.approver().then((m) => ({ default: m.ApproverPortal })));

export function App() {
  return (
    <I18nextProvider i18n={i18next}>
      <ToastProvider>
        <AppConfigProvider>
          <BrowserRouter>
            <SessionEvents />
            <StaffOfflineNotice />
            <Suspense fallback={<Spinner page />}>
              <Routes>
                <Route path={PATHS.root} element={<Navigate to={PATHS.login} replace />} />
                <Route path={PATHS.login} element={<Login />} />
                <Route path={PATHS.logout} element={<Logout />} />
                <Route path={PATHS.forgotPassword} element={<ForgotPassword />} />
                <Route path={PATHS.resetPassword} element={<ResetPassword />} />
                <Route element={<RequireAuth roles={['offender']} />}>
                  <Route path='/portal/offender/*' element={<OffenderPortal />} />
                </Route>
                <Route element={<RequireAuth roles={['attorney']} />}>
                  <Route path='/portal/attorney/*' element={<AttorneyPortal />} />
                </Route>
                <Route element={<RequireAuth roles={['attorney', 'representative', 'admin', 'approver']} />}>
                  <Route path={PATHS.security} element={<SecurityScreen />} />
                </Route>
                <Route element={<RequireAuth roles={['representative']} />}>
                  <Route path='/portal/representative/*' element={<RepresentativePortal />} />
                  <Route path='/representative/*' element={<RepresentativePortal />} />
                </Route>
                <Route element={<AntdShell />}>
                  <Route path={PATHS.register} element={<Register />} />
                  <Route path={PATHS.unauthorized} element={<Unauthorized />} />
                  <Route element={<RequireAuth />}>
                    <Route path={PATHS.setPassword} element={<SetPassword />} />
                    <Route path={PATHS.files} element={<Files />} />
                  </Route>
                  <Route
                    element={<RequireAuth roles={['attorney', 'representative', 'admin', 'approver']} />}
                  >
                    <Route path={PATHS.receiptCheck} element={<ReceiptCheck />} />
                  </Route>
                  <Route element={<RequireAuth roles={['admin']} />}>
                    <Route path='/portal/admin/*' element={<AdminPortal />} />
                  </Route>
                  <Route element={<RequireAuth roles={['approver']} />}>
                    <Route path='/portal/approver/*' element={<ApproverPortal />} />
                  </Route>
                </Route>
                <Route element={<RequireAuth />}>
                  {/* Only a redirect: the offender passes through it without loading the antd shell. */}
                  <Route path={PATHS.portal} element={<PortalRedirect />} />
                  <Route path='/pdfViewer/:documentId' element={<PopupViewer />} />
                  <Route path='/pdfViewer' element={<PopupViewer />} />
                </Route>
                {/* An unknown address: a signed-in user goes to their own portal (/portal), anyone else signs in. */}
                <Route path='*' element={<Navigate to={PATHS.portal} replace />} />
              </Routes>
            </Suspense>
          </BrowserRouter>
        </AppConfigProvider>
      </ToastProvider>
    </I18nextProvider>
  );
}
