/**
 * The offender's document list (spec section 2): search, table, paging, View /
 * Print / Info. The list comes from the tablet's saved copy at once and from
 * the API as soon as it answers (useOffenderList.ts), with a banner
 * while what is shown is not live. A 401 says 'Authentication failed - please
 * login again' and goes to /logout. Made for the facility tablet: a card per
 * document when held upright, the table when turned (mail/DocumentTable.tsx's `touch`).
 */
import { useCallback, useMemo, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useToast } from '../../components/useToast.ts';
import { ApiError } from '../../lib/api.ts';
import { DEFAULT_SORT, type DocumentRow, type SearchField, toDocumentRow } from '../../mail/listLogic.ts';
import { type ColumnSpec, DocumentTable } from '../../mail/DocumentTable.tsx';
import { InfoDialog } from '../../mail/InfoDialog.tsx';
import { usePopups } from '../../mail/usePopups.ts';
import { documentStore } from '../../mail/documentStore.ts';
import { PATHS } from '../../lib/routing.ts';
import { storage } from '../../lib/storage.ts';
import { listSavedText } from '../../offline/offlineTexts.ts';
import { offenderLoadFailure } from './offenderTexts.ts';
import { useOffenderList } from './useOffenderList.ts';

/** The offender list's columns (spec section 2), in order; their headings are the catalogues' `columns`. */
const COLUMNS: readonly ColumnSpec[] = [
  { key: 'name', title: 'columns.name' },
  { key: 'attorney', title: 'columns.attorney' },
  { key: 'date', title: 'columns.date' },
  { key: 'pages', title: 'columns.pages' },
  { key: 'eformDue', title: 'columns.eformDue' },
];

const SEARCH_FIELDS: readonly SearchField[] = ['name', 'attorney'];

export function OffenderDocuments({ cache }: { cache: boolean }) {
  const toast = useToast();
  const navigate = useNavigate();
  const popups = usePopups();
  const [info, setInfo] = useState<DocumentRow | null>(null);
  const docNumber = storage.getDocId();
  const { t } = useTranslation();

  const onError = useCallback((error: unknown, firstOfRound: boolean) => {
    const failure = offenderLoadFailure(error);
    // A dropped network is shown by the banner; the spec's toast says it once, not at every retry.
    const dropped = error instanceof ApiError && error.status === 0;
    if (!dropped || firstOfRound) toast.error(failure.message);
    if (failure.signOut) navigate(PATHS.logout, { replace: true });
  }, [navigate, toast]);

  const list = useOffenderList(docNumber, { cache, onError });
  const stored = useSyncExternalStore(documentStore.subscribe, documentStore.list);
  // Opened here since the list was last loaded: no longer New, before the server's list says so.
  const [openedHere, setOpenedHere] = useState<ReadonlySet<string>>(new Set());
  const rows = useMemo(() => stored.map(toDocumentRow), [stored]);
  const isUnread = useCallback(
    (row: DocumentRow) => row.viewed_at === null && !openedHere.has(row.documentid),
    [openedHere],
  );
  const view = useCallback((row: DocumentRow) => {
    setOpenedHere((opened) => new Set(opened).add(row.documentid));
    popups.view(row);
  }, [popups]);
  const closeInfo = useCallback(() => setInfo(null), []);

  return (
    <section aria-labelledby='offender-documents' className='list-area list-area-touch'>
      <h2 id='offender-documents' className='section-heading'>{t('offender.heading')}</h2>
      {list.offline && (
        <div className='alert alert-warning offline-banner' role='status'>
          <span className='alert-title offline-banner-title'>
            {list.savedAt !== null ? listSavedText(list.savedAt) : t('offline.listNotSaved')}
          </span>
          <button
            type='button'
            className='btn'
            onClick={list.retry}
            disabled={list.loading}
            aria-busy={list.loading}
          >
            {t('offline.tryAgain')}
          </button>
        </div>
      )}
      <DocumentTable
        touch
        label={t('offender.heading')}
        rows={rows}
        loading={list.loading && rows.length === 0}
        columns={COLUMNS}
        searchFields={SEARCH_FIELDS}
        searchPlaceholder={t('offender.searchPlaceholder')}
        defaultSort={DEFAULT_SORT}
        isUnread={isUnread}
        onView={view}
        onPrint={popups.print}
        onInfo={setInfo}
        // Info opens for every letter: without a description it still says who sent it and when it came
        // (docs/product.md); the description itself follows the spec's rule.
        infoAlways
      />
      {info && <InfoDialog row={info} onClose={closeInfo} />}
    </section>
  );
}
