/**
 * /portal/offender/*: / and /documents show the document list, /view/:fileUrl
 * the viewer (the parameter is the document id), /sign-ins the offender's own recent sign-ins (SignIns.tsx),
 * anything else goes back to
 * /portal/offender (spec section 2). On the facility tablet it runs offline too
 * : the lock screen replaces everything while the tablet is locked,
 * and the viewer's code (with antd) loads only when a document is opened.
 * Everything in it is sized for the tablet it runs on: 44 px controls
 * (`.tablet` in offender.css, TABLET_THEME in the viewer).
 */
import { lazy, Suspense, useState } from 'react';
import { resetDate } from '../../auth/pinReset.ts';
import { savePreferences } from '../../auth/authApi.ts';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { PortalHeader } from '../../components/PortalHeader.tsx';
import { PortalLayout } from '../../components/PortalLayout.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { useLogOff } from '../../components/useLogOff.ts';
import { ROLE_HOME } from '../../lib/routing.ts';
import { storage } from '../../lib/storage.ts';
import { LockScreen } from './LockScreen.tsx';
import { OffenderDocuments } from './OffenderDocuments.tsx';
import { SignIns } from './SignIns.tsx';
import { dismissPinResetNotice } from './signInsApi.ts';
import { useTabletSession } from './useTabletSession.ts';
import './offender.css';

const TabletViewer = lazy(() => import('./TabletViewer.tsx'));

function OffenderViewer() {
  return (
    <Suspense fallback={<Spinner />}>
      <TabletViewer />
    </Suspense>
  );
}

/**
 * Told at every sign-in after staff reset the PIN (the API's `pinResetAt`) until the offender dismisses it: the
 * server keeps it until then (POST /api/auth/pin-reset-notice/dismiss), so a sign-in by whoever chose the PIN
 * cannot use it up. It leads to the offender's own sign-ins, those after the reset marked.
 */
function PinResetNotice() {
  const { t, i18n } = useTranslation();
  const [stored, setStored] = useState(() => storage.readUser());
  const [failed, setFailed] = useState(false);
  if (!stored.ok || !stored.user.pinResetAt || stored.user.mustChangePassword) return null;
  const { pinResetAt, ...rest } = stored.user;
  async function dismiss() {
    try {
      await dismissPinResetNotice();
    } catch {
      setFailed(true);
      return;
    }
    storage.saveUser(rest);
    setStored(storage.readUser());
  }
  return (
    <div className='alert alert-warning' role='alert'>
      <span className='alert-title'>
        {t('pinReset.notice', { date: resetDate(pinResetAt, i18n.language) })}
      </span>
      {failed && <span>{t('pinReset.dismissFailed')}</span>}
      <Link className='btn' to={SIGN_INS_PATH}>{t('pinReset.seeSignIns')}</Link>
      <button type='button' className='btn' onClick={() => void dismiss()}>
        {t('pinReset.dismiss')}
      </button>
    </div>
  );
}

const SIGN_INS_PATH = `${ROLE_HOME.offender}/sign-ins`;

/** The header's way to the offender's own sign-ins (hidden while they are shown). */
function SignInsLink() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  if (pathname === SIGN_INS_PATH) return null;
  return <Link className='btn' to={SIGN_INS_PATH}>{t('signIns.link')}</Link>;
}

/**
 * Larger text: everything on the tablet's screen drawn a quarter larger (CSS zoom, so the layout reflows as it
 * does with the browser's own zoom). Kept with the user on the server (PATCH /api/auth/preferences) and in this
 * session's stored user, never on the shared tablet itself: the next person starts at their own size, and the
 * choice follows its owner to any tablet at their next sign-in.
 */
function LargerTextButton({ on, onToggle }: { on: boolean; onToggle(): void }) {
  const { t } = useTranslation();
  return (
    // On, it is filled with a tick (offender.css), not told only by a thin border; aria-pressed says it aloud.
    <button type='button' className='btn btn-toggle' aria-pressed={on} onClick={onToggle}>
      <span className='btn-toggle-mark' aria-hidden='true'>{on ? '✓' : ''}</span>
      {t('header.largerText')}
    </button>
  );
}

/** The session's stored choice (from the sign-in's answer, or saved during this session). */
function storedLargerText(): boolean {
  const stored = storage.readUser();
  return stored.ok && stored.user.largerText;
}

/**
 * Saves the choice in this session's stored user (a reload keeps it) and with the user on the server. Offline or
 * refused, the screen keeps it for this session all the same.
 */
function saveLargerText(on: boolean): void {
  const stored = storage.readUser();
  if (stored.ok) storage.saveUser({ ...stored.user, largerText: on });
  savePreferences({ largerText: on }).catch(() => {});
}

export function OffenderPortal() {
  const logOff = useLogOff('logout-screen');
  const tablet = useTabletSession();
  const { t } = useTranslation();
  const [largerText, setLargerText] = useState(storedLargerText);
  function toggleLargerText() {
    const on = !largerText;
    setLargerText(on);
    saveLargerText(on);
  }
  const header = (
    <PortalHeader
      // Locked, the lock screen's own Log Off (under the PIN) is the one way out: the header's would be a second.
      onLogOff={tablet.phase === 'locked' ? undefined : logOff}
      actions={
        <>
          <LargerTextButton on={largerText} onToggle={toggleLargerText} />
          <SignInsLink />
        </>
      }
      details={
        <p className='portal-details'>
          {t('header.docId')} <strong>{storage.getDocId() ?? ''}</strong>
        </p>
      }
    />
  );
  const cache = tablet.phase === 'unlocked';
  let content;
  if (tablet.phase === 'starting' || tablet.phase === 'ended') {
    content = <Spinner page />;
  } else if (tablet.phase === 'locked') {
    content = <LockScreen onLogOff={logOff} />;
  } else {
    content = (
      <Routes>
        <Route index element={<OffenderDocuments cache={cache} />} />
        <Route path='documents' element={<OffenderDocuments cache={cache} />} />
        <Route path='view/:fileUrl' element={<OffenderViewer />} />
        <Route path='sign-ins' element={<SignIns />} />
        <Route path='*' element={<Navigate to={ROLE_HOME.offender} replace />} />
      </Routes>
    );
  }
  return (
    <div className={largerText ? 'tablet tablet-larger-text' : 'tablet'}>
      <PortalLayout header={header}>
        {tablet.phase !== 'locked' && <PinResetNotice />}
        {content}
      </PortalLayout>
    </div>
  );
}
