/**
 * The offender's document list (spec section 2): search, table, paging, View /
 * Print / Info. Loaded documents are appended to the in-memory list (spec
 * section 4), which the table shows. A 401 says 'Authentication failed -
 * please login again' and goes to /logout. Made for the facility tablet: a
 * card per document when held upright, the table when turned (`touch`).
 */
import { Typography } from 'antd';
import { useCallback, useMemo, useState, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router-dom';
import { useToast } from '../../components/useToast.ts';
import { type ColumnSpec, DocumentTable } from '../../mail/DocumentTable.tsx';
import { InfoModal } from '../../mail/InfoModal.tsx';
import { type DocumentRow, type SearchField, toDocumentRow } from '../../mail/listLogic.ts';
import { useDocumentList } from '../../mail/useDocumentList.ts';
import { usePopups } from '../../mail/usePopups.ts';
import { documentStore } from '../../mail/documentStore.ts';
import { PATHS } from '../../lib/routing.ts';
import { storage } from '../../lib/storage.ts';
import { offenderLoadFailure } from './offenderTexts.ts';

const COLUMNS: readonly ColumnSpec[] = [
  { key: 'name', title: 'Document Name' },
  { key: 'attorney', title: 'From Attorney' },
  { key: 'date', title: 'Date Received' },
  { key: 'pages', title: '# of Pages' },
  { key: 'eformDue', title: 'Delete Date' },
];

const SEARCH_FIELDS: readonly SearchField[] = ['name', 'attorney'];

export function OffenderDocuments() {
  const toast = useToast();
  const navigate = useNavigate();
  const popups = usePopups();
  const [info, setInfo] = useState<DocumentRow | null>(null);
  const docNumber = storage.getDocId();

  const onError = useCallback((error: unknown) => {
    const failure = offenderLoadFailure(error);
    toast.error(failure.message);
    if (failure.signOut) navigate(PATHS.logout, { replace: true });
  }, [navigate, toast]);

  const list = useDocumentList(docNumber ? { kind: 'offender', docNumber } : null, {
    quiet: true,
    onLoaded: (rows) => documentStore.append(rows),
    onError,
  });
  const stored = useSyncExternalStore(documentStore.subscribe, documentStore.list);
  const rows = useMemo(() => stored.map(toDocumentRow), [stored]);

  return (
    <section aria-labelledby='offender-documents' className='list-area list-area-touch'>
      <Typography.Title level={2} id='offender-documents' className='section-heading'>
        My documents
      </Typography.Title>
      <DocumentTable
        label='My documents'
        rows={rows}
        loading={list.loading}
        columns={COLUMNS}
        searchFields={SEARCH_FIELDS}
        searchPlaceholder='Document name, attorney or pages'
        defaultSort={null}
        onView={popups.view}
        onPrint={popups.print}
        onInfo={setInfo}
        touch
      />
      <InfoModal row={info} onClose={() => setInfo(null)} />
    </section>
  );
}
