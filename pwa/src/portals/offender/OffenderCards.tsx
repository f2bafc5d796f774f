/**
 * The offender's list as one card per document, for a tablet held upright, where six columns and three buttons
 * do not fit across: the name as the card's heading, every other column's value under its column's label, and
 * View / Print / Info as full-width buttons. Same rows, texts and actions as the table.
 */
import { useId } from 'react';
import type { DocumentRow } from '../../mail/listLogic.ts';
import { cellContent, COLUMNS, type RowActionHandlers, RowActions, SentBy } from './documentCells.tsx';

function DocumentCard({ row, actions }: { row: DocumentRow; actions: RowActionHandlers }) {
  const headingId = useId();
  return (
    <li className='document-card'>
      <article aria-labelledby={headingId}>
        <p className='document-card-label'>{COLUMNS[0].title}</p>
        <h3 id={headingId} className='document-card-title'>{row.name}</h3>
        <SentBy row={row} />
        <dl className='document-card-fields'>
          {COLUMNS.filter((column) => column.key !== 'name').map((column) => (
            <div key={column.key}>
              <dt>{column.title}</dt>
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

export function OffenderCards(
  { label, rows, loading, actions }: {
    label: string;
    rows: readonly DocumentRow[];
    loading: boolean;
    actions: RowActionHandlers;
  },
) {
  return (
    <div className='document-cards-area' aria-busy={loading}>
      {loading && (
        <div className='document-cards-loading' role='status'>
          <span className='spinner-ring' aria-hidden='true' />
          <span>Loading documents</span>
        </div>
      )}
      {rows.length === 0
        ? !loading && <p className='document-cards-empty'>No documents found</p>
        : (
          <ul className='document-cards' aria-label={label}>
            {rows.map((row) => <DocumentCard key={row.documentid} row={row} actions={actions} />)}
          </ul>
        )}
    </div>
  );
}
