/**
 * 'My Documents' of a sender (attorney or representative): the sortable
 * table with a 'Read' column, Info, the Upload Document modal and the red
 * load-failure message with 'Try Again'. The server searches, sorts and pages
 * (useSenderPage.ts): a sender may have sent tens of thousands of documents.
 */
import { Typography } from 'antd';
import { useState } from 'react';
import { failureMessage } from '../lib/api.ts';
import { storage } from '../lib/storage.ts';
import { type ColumnSpec, DocumentTable } from './DocumentTable.tsx';
import type { ListSource } from './mailApi.ts';
import { InfoModal } from './InfoModal.tsx';
import { DEFAULT_SORT, type DocumentRow, type SearchField } from './listLogic.ts';
import { LoadError } from './LoadError.tsx';
import { UploadModal, type UploadTexts } from './UploadModal.tsx';
import { usePopups } from './usePopups.ts';
import { useSenderPage } from './useSenderPage.ts';

export const SENDER_COLUMNS: readonly ColumnSpec[] = [
  { key: 'name', title: 'Document Name' },
  { key: 'offenderdocnumber', title: 'To Offender (DOC#)' },
  { key: 'date', title: 'Date Sent' },
  { key: 'pages', title: '# of Pages' },
  { key: 'eformDue', title: 'Delete Date' },
  { key: 'read', title: 'Read' },
];

const SEARCH_FIELDS: readonly SearchField[] = ['name', 'offenderdocnumber'];

/** Spec section 8: the load failures of the sender screens. */
export const LOAD_TEXTS = { failed: 'Failed to load documents', error: 'Error loading documents' } as const;
export const AUTH_REQUIRED = 'Authentication required';

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
  const signedIn = storage.getGuid() !== null;
  const list = useSenderPage(signedIn ? source.kind : null);
  const popups = usePopups();
  const [info, setInfo] = useState<DocumentRow | null>(null);
  const headingId = `${source.kind}-documents`;

  return (
    <section aria-labelledby={headingId}>
      <Typography.Title level={2} id={headingId} className='section-heading'>
        My Documents
      </Typography.Title>
      {!signedIn && <LoadError message={AUTH_REQUIRED} onRetry={list.retry} />}
      {list.error !== null && !list.loading && (
        <LoadError message={failureMessage(list.error, LOAD_TEXTS)} onRetry={list.retry} />
      )}
      <DocumentTable
        label='My Documents'
        rows={list.rows}
        server={{
          total: list.total,
          offset: list.offset,
          page: list.page,
          pageSize: list.pageSize,
          sort: list.sort,
          search: list.search,
          onSearch: list.setSearch,
          onSort: list.setSort,
          onPageSize: list.setPageSize,
          onPage: list.goTo,
        }}
        loading={list.loading}
        columns={SENDER_COLUMNS}
        searchFields={SEARCH_FIELDS}
        searchPlaceholder='Document name, DOC number or pages'
        defaultSort={DEFAULT_SORT}
        onView={popups.view}
        onPrint={popups.print}
        onInfo={setInfo}
      />
      <InfoModal row={info} onClose={() => setInfo(null)} />
      <UploadModal
        open={uploadOpen}
        path={uploadPath}
        texts={uploadTexts}
        onClose={onUploadClose}
        onUploaded={list.reload}
      />
    </section>
  );
}
