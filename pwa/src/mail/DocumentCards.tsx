/**
 * A document list as one card per document, for a tablet held upright, where
 * six columns and three buttons do not fit across: the name as the card's
 * heading, every other column's value under its column's label, and View /
 * Print / Info as full-width buttons. Same rows, texts and actions as the table.
 */
import { Spin, Typography } from 'antd';
import { type ReactNode, useId } from 'react';
import { cellContent, type ColumnSpec, SentBy } from './DocumentCells.tsx';
import type { DocumentRow } from './listLogic.ts';

export interface DocumentCardsProps {
  /** Names the list for screen readers. */
  label: string;
  rows: readonly DocumentRow[];
  loading: boolean;
  columns: readonly ColumnSpec[];
  actions(row: DocumentRow): ReactNode;
}

function DocumentCard(
  { row, columns, actions }: { row: DocumentRow; columns: readonly ColumnSpec[]; actions: ReactNode },
) {
  const headingId = useId();
  const nameTitle = columns.find((column) => column.key === 'name')?.title;
  return (
    <li className='document-card'>
      <article aria-labelledby={headingId}>
        {nameTitle && <p className='document-card-label'>{nameTitle}</p>}
        <Typography.Title level={3} id={headingId} className='document-card-title'>
          {row.name}
        </Typography.Title>
        <SentBy row={row} />
        <dl className='document-card-fields'>
          {columns.filter((column) => column.key !== 'name').map((column) => (
            <div key={column.key}>
              <dt>{column.title}</dt>
              <dd>{cellContent(row, column.key)}</dd>
            </div>
          ))}
        </dl>
        <div className='document-card-actions'>{actions}</div>
      </article>
    </li>
  );
}

export function DocumentCards({ label, rows, loading, columns, actions }: DocumentCardsProps) {
  return (
    <div className='document-cards-area' aria-busy={loading}>
      {loading && (
        <div className='document-cards-loading' role='status'>
          <Spin aria-label='Loading documents' />
        </div>
      )}
      {rows.length === 0
        ? !loading && <p className='document-cards-empty'>No documents found</p>
        : (
          <ul className='document-cards' aria-label={label}>
            {rows.map((row) => (
              <DocumentCard key={row.documentid} row={row} columns={columns} actions={actions(row)} />
            ))}
          </ul>
        )}
    </div>
  );
}
