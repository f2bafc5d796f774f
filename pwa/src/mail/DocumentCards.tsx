/**
 * A document list as one card per document, for a tablet held upright (DocumentTable's `touch`), where six
 * columns and three buttons do not fit across: the name as the card's heading, every other column's value under
 * its column's label, and View / Print / Info as full-width buttons. Same rows, texts and actions as the table.
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import {
  cellContent,
  type ColumnSpec,
  type RowActionHandlers,
  RowActions,
  RowBadges,
} from './DocumentCells.tsx';
import type { DocumentRow } from './listLogic.ts';

function DocumentCard(
  { row, columns, actions }: { row: DocumentRow; columns: readonly ColumnSpec[]; actions: RowActionHandlers },
) {
  const headingId = useId();
  const { t } = useTranslation();
  const nameKey = columns.find((column) => column.key === 'name')?.title;
  const nameTitle = nameKey ? t(nameKey) : null;
  return (
    <li className='document-card'>
      <article aria-labelledby={headingId}>
        {nameTitle && <p className='document-card-label'>{nameTitle}</p>}
        <h3 id={headingId} className='document-card-title'>{row.name}</h3>
        <RowBadges row={row} />
        <dl className='document-card-fields'>
          {columns.filter((column) => column.key !== 'name').map((column) => (
            <div key={column.key}>
              <dt>{t(column.title)}</dt>
              <dd>{cellContent(row, column.key)}</dd>
            </div>
          ))}
        </dl>
        <div className='document-card-actions'>
          <RowActions row={row} {...actions} />
        </div>
      </article>
    </li>
  );
}

export function DocumentCards(
  { label, rows, loading, columns, actions }: {
    /** Names the list for screen readers. */
    label: string;
    rows: readonly DocumentRow[];
    loading: boolean;
    columns: readonly ColumnSpec[];
    actions: RowActionHandlers;
  },
) {
  const { t } = useTranslation();
  return (
    <div className='document-cards-area' aria-busy={loading}>
      {loading && (
        <div className='document-cards-loading' role='status'>
          <span className='spinner-ring' aria-hidden='true' />
          <span>{t('list.loading')}</span>
        </div>
      )}
      {rows.length === 0
        ? !loading && <p className='document-cards-empty'>{t('list.empty')}</p>
        : (
          <ul className='document-cards' aria-label={label}>
            {rows.map((row) => (
              <DocumentCard key={row.documentid} row={row} columns={columns} actions={actions} />
            ))}
          </ul>
        )}
    </div>
  );
}
