/**
 * /files: the general document list of any signed-in user (the /portal
 * redirect sends unknown roles here): what they may read, with View and Print.
 * Staff get an empty list from the API.
 */
import { useTranslation } from 'react-i18next';
import { PortalHeader } from '../components/PortalHeader.tsx';
import { PortalLayout } from '../components/PortalLayout.tsx';
import { useLogOff } from '../components/useLogOff.ts';
import { type ColumnSpec, DocumentTable } from './DocumentTable.tsx';
import { LoadError } from './LoadError.tsx';
import { DEFAULT_SORT, type SearchField } from './listLogic.ts';
import { LOAD_TEXTS } from './SenderDocuments.tsx';
import { useDocumentList } from './useDocumentList.ts';
import { usePopups } from './usePopups.ts';
import { failureMessage } from '../lib/api.ts';

const COLUMNS: readonly ColumnSpec[] = [
  { key: 'name', title: 'columns.name' },
  { key: 'from', title: 'columns.from' },
  { key: 'to', title: 'columns.to' },
  { key: 'date', title: 'columns.dateFiles' },
  { key: 'pages', title: 'columns.pages' },
  { key: 'eformDue', title: 'columns.eformDue' },
];

const SEARCH_FIELDS: readonly SearchField[] = ['name', 'from', 'to'];
const SOURCE = { kind: 'mine' } as const;

export function Files() {
  const { t } = useTranslation();
  const logOff = useLogOff('logout-screen');
  const list = useDocumentList(SOURCE);
  const popups = usePopups();
  return (
    <PortalLayout header={<PortalHeader onLogOff={logOff} />}>
      <section aria-labelledby='files-heading' className='list-area'>
        <h2 id='files-heading' className='section-heading'>{t('sender.filesHeading')}</h2>
        {list.error !== null && !list.loading && (
          <LoadError message={failureMessage(list.error, LOAD_TEXTS)} onRetry={list.reload} />
        )}
        <DocumentTable
          label={t('sender.filesHeading')}
          rows={list.rows}
          loading={list.loading}
          columns={COLUMNS}
          searchFields={SEARCH_FIELDS}
          searchPlaceholder={t('sender.searchFiles')}
          defaultSort={DEFAULT_SORT}
          onView={popups.view}
          onPrint={popups.print}
        />
      </section>
    </PortalLayout>
  );
}
