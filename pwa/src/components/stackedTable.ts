/**
 * A back-office table that becomes one card per row on a narrow screen (a phone, the facility's tablet held
 * upright, the admin's content beside its menu): below 992 px the header row is kept for screen readers only and
 * each cell shows its column's title above its value (styles.css, `.stacked-table`), so no column and no action is
 * pushed off the right edge or behind a sideways scroll.
 */
import type { ColumnsType } from 'antd/es/table';

/** The class the stacked layout hangs on. */
export const STACKED_TABLE = 'stacked-table';

/** `columns`, each cell carrying its column's title for the narrow layout to show beside it. */
export function stackedColumns<T>(columns: ColumnsType<T>): ColumnsType<T> {
  return columns.map((column) => {
    const label = typeof column.title === 'string' ? column.title : '';
    const onCell = column.onCell;
    return {
      ...column,
      onCell: (record: T, index?: number) => ({ ...(onCell?.(record, index) ?? {}), 'data-label': label }),
    };
  });
}
