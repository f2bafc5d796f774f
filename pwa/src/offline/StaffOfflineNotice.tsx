/**
 * The staff portals' offline state: attorneys, representatives, approvers and admins work on shared
 * office computers, so nothing of theirs is cached; with the network gone they get one clear notice instead of a
 * failure per call. The offender's portal has its own offline client, and the sign-in page its own message.
 * Plain markup (rendered at the app's root, which carries no antd: the tablet's 200 KB budget).
 */
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { useOnline } from './useOnline.ts';

const STAFF_PATHS =
  /^\/(portal\/(attorney|admin|approver|representative)|representative|files|set-password)(\/|$)/;

export function StaffOfflineNotice() {
  const online = useOnline();
  const { pathname } = useLocation();
  const { t } = useTranslation();
  if (online || !STAFF_PATHS.test(pathname)) return null;
  return (
    <div className='alert alert-warning alert-banner staff-offline' role='alert'>
      <span className='alert-title'>{t('offline.staffOffline')}</span>
      <span className='alert-description'>{t('offline.staffOfflineDetail')}</span>
    </div>
  );
}
