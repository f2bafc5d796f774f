/**
 * 'My Documents' of a sender (attorney or representative): the sortable
 * table with a Status column (where each delivery stands), Info with the
 * receipt's timeline, Withdraw with its confirmation, the sender's
 * Notifications, the Upload Document modal and the red
 * load-failure message with 'Try Again'. The server searches, sorts and pages
 * (useSenderPage.ts): a sender may have sent tens of thousands of documents.
 * Plain markup up to the Upload modal, which is loaded when first opened (Lighthouse ≥ 95 here).
 */
import i18next from 'i18next';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureMessage } from '../lib/api.ts';
import { storage } from '../lib/storage.ts';
import { type ColumnSpec, DocumentTable } from './DocumentTable.tsx';
import type { ListSource } from './mailApi.ts';
import { InfoDialog } from './InfoDialog.tsx';
import { NotificationSetting } from './NotificationSetting.tsx';
import { WithdrawDialog } from './WithdrawDialog.tsx';
import { DEFAULT_SORT, type DocumentRow, type SearchField } from './listLogic.ts';
import { LoadError } from './LoadError.tsx';
import type { UploadTexts } from './uploadForm.ts';
import { usePopups } from './usePopups.ts';
import { useSenderPage } from './useSenderPage.ts';

// antd's Form and Modal, fetched once the list has painted (the browser's first idle moment, or at the first
// click on 'Upload New Document' if that comes sooner): the list paints without antd, and on a slow laptop the
// first click does not wait for the download.
const loadUploadModal = () => import('./UploadModal.tsx');
const UploadModal = lazy(loadUploadModal);

export const SENDER_COLUMNS: readonly ColumnSpec[] = [
  { key: 'name', title: 'columns.name' },
  { key: 'offenderdocnumber', title: 'columns.offenderdocnumber' },
  { key: 'date', title: 'columns.dateSent' },
  { key: 'pages', title: 'columns.pages' },
  { key: 'eformDue', title: 'columns.eformDue' },
  { key: 'state', title: 'columns.state' },
];

const SEARCH_FIELDS: readonly SearchField[] = ['name', 'offenderdocnumber'];

/** Spec section 8: the load failures of the sender screens, in the language shown. */
export const LOAD_TEXTS = {
  get failed() {
    return i18next.t('sender.loadFailed');
  },
  get error() {
    return i18next.t('sender.loadError');
  },
};

export interface SenderDocumentsProps {
  source: ListSource & { kind: 'attorney' | 'representative' };
  uploadPath: '/documents/upload' | '/representative/upload';
  uploadTexts: UploadTexts;
  uploadOpen: boolean;
  onUploadClose(): void;
}

export function SenderDocuments(
  { source, uploadPath, uploadTexts, uploadOpen, onUploadClose }: SenderDocumentsProps,
) {
  const { t } = useTranslation();
  const signedIn = storage.getGuid() !== null;
  const list = useSenderPage(signedIn ? source.kind : null);
  useEffect(() => {
    if (!signedIn) return;
    const idle = globalThis.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 1000));
    idle(() => void loadUploadModal().catch(() => {/* offline: the click tries again */}));
  }, [signedIn]);
  const popups = usePopups();
  const [info, setInfo] = useState<DocumentRow | null>(null);
  const [withdrawing, setWithdrawing] = useState<DocumentRow | null>(null);
  // Mounted from the first opening on, so closing it keeps its closing animation and the next opening is instant.
  const [uploadWanted, setUploadWanted] = useState(false);
  if (uploadOpen && !uploadWanted) setUploadWanted(true);
  const headingId = `${source.kind}-documents`;

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className='section-heading'>{t('sender.heading')}</h2>
      {signedIn && <NotificationSetting />}
      {!signedIn && <LoadError message={t('sender.authRequired')} onRetry={list.retry} />}
      {list.error !== null && !list.loading && (
        <LoadError message={failureMessage(list.error, LOAD_TEXTS)} onRetry={list.retry} />
      )}
      <DocumentTable
        label={t('sender.heading')}
        rows={list.rows}
        server={list.paging}
        loading={list.loading}
        columns={SENDER_COLUMNS}
        searchFields={SEARCH_FIELDS}
        searchPlaceholder={t('sender.searchSent')}
        defaultSort={DEFAULT_SORT}
        onView={popups.view}
        onPrint={popups.print}
        onInfo={setInfo}
        infoAlways
        onWithdraw={setWithdrawing}
      />
      {info && <InfoDialog row={info} onClose={() => setInfo(null)} signedReceipt />}
      {withdrawing && (
        <WithdrawDialog
          row={withdrawing}
          onClose={() => setWithdrawing(null)}
          onWithdrawn={list.reload}
        />
      )}
      {uploadWanted && (
        <Suspense fallback={null}>
          <UploadModal
            open={uploadOpen}
            path={uploadPath}
            texts={uploadTexts}
            onClose={onUploadClose}
            onUploaded={list.reload}
          />
        </Suspense>
      )}
    </section>
  );
}
