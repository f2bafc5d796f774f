/**
 * A document list as one card per document, for a tablet held upright (DocumentTable's `touch`), where six
 * columns and three buttons do not fit across: the name as the card's heading, every other column's value under
 * its column's label, and View / Print / Info as full-width buttons. Same rows, texts and actions as the table.
 * With no column headers to click, a Sort by list above the cards offers the table's orders, each worded by what
 * it does ('Date: newest first').
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import {
  cellContent,
  type CellContext,
  type ColumnSpec,
  type RowActionHandlers,
  RowActions,
  RowBadges,
} from './DocumentCells.tsx';
import {
  type DocumentRow,
  parseSortValue,
  sortChoices,
  type SortKey,
  sortKind,
  type SortState,
  sortValue,
} from './listLogic.ts';

/** How each order reads, by what the column holds. */
const ORDER_WORDS = {
  text: { asc: 'list.sortOrder.text.asc', desc: 'list.sortOrder.text.desc' },
  date: { asc: 'list.sortOrder.date.asc', desc: 'list.sortOrder.date.desc' },
  number: { asc: 'list.sortOrder.number.asc', desc: 'list.sortOrder.number.desc' },
} as const;

/** The cards' sort: one native select (keyboard, screen reader and a touch screen's own picker for free). */
function SortPicker(
  { keys, columns, sort, onSort }: {
    keys: readonly SortKey[];
    columns: readonly ColumnSpec[];
    sort: SortState | null;
    onSort(sort: SortState): void;
  },
) {
  const { t } = useTranslation();
  const id = useId();
  const title = (key: SortKey) => {
    const column = columns.find((spec) => spec.key === key);
    return column ? t(column.title) : key;
  };
  return (
    <div className='tool document-cards-sort'>
      <label htmlFor={id}>{t('list.sortBy')}</label>
      <select
        id={id}
        className='input'
        value={sort ? sortValue(sort) : ''}
        onChange={(event) => {
          const chosen = parseSortValue(event.target.value, keys);
          if (chosen) onSort(chosen);
        }}
      >
        {sort === null && <option value='' disabled>{t('list.sortNone')}</option>}
        {sortChoices(keys).map((choice) => (
          <option key={sortValue(choice)} value={sortValue(choice)}>
            {t(ORDER_WORDS[sortKind(choice.key)][choice.order], { column: title(choice.key) })}
          </option>
        ))}
      </select>
    </div>
  );
}

function DocumentCard(
  { row, columns, actions, unread, context }: {
    row: DocumentRow;
    columns: readonly ColumnSpec[];
    actions: RowActionHandlers;
    unread: boolean;
    context: CellContext;
  },
) {
  const headingId = useId();
  const { t } = useTranslation();
  const nameKey = columns.find((column) => column.key === 'name')?.title;
  const nameTitle = nameKey ? t(nameKey) : null;
  return (
    <li className={unread ? 'document-card document-unread' : 'document-card'}>
      <article aria-labelledby={headingId}>
        {nameTitle && <p className='document-card-label'>{nameTitle}</p>}
        <h3 id={headingId} className='document-card-title'>{row.name}</h3>
        <RowBadges row={row} unread={unread} />
        <dl className='document-card-fields'>
          {columns.filter((column) => column.key !== 'name').map((column) => (
            <div key={column.key}>
              <dt>{t(column.title)}</dt>
              <dd>{cellContent(row, column.key, context)}</dd>
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
  { label, rows, loading, columns, actions, sorting, isUnread, context }: {
    /** Names the list for screen readers. */
    label: string;
    rows: readonly DocumentRow[];
    loading: boolean;
    columns: readonly ColumnSpec[];
    actions: RowActionHandlers;
    /** Absent: the list does not sort. */
    sorting?: { keys: readonly SortKey[]; sort: SortState | null; onSort(sort: SortState): void };
    isUnread(row: DocumentRow): boolean;
    context: CellContext;
  },
) {
  const { t } = useTranslation();
  return (
    <div className='document-cards-area' aria-busy={loading}>
      {sorting && <SortPicker columns={columns} {...sorting} />}
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
              <DocumentCard
                key={row.documentid}
                row={row}
                columns={columns}
                actions={actions}
                unread={isUnread(row)}
                context={context}
              />
            ))}
          </ul>
        )}
    </div>
  );
}
