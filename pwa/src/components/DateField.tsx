/**
 * A date field that speaks the language shown: antd's DatePicker (its calendar, its placeholder and its month
 * names from antd's and dayjs's locale, AntdShell.tsx), where the browser's own date input would show its own
 * language's 'mm/dd/yyyy' whatever the page's. Its value is the plain 'YYYY-MM-DD' the API takes, so it drops
 * into a Form.Item or a form's state as the native input did; the same form is typed in either language.
 */
import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';

const ISO_DATE = 'YYYY-MM-DD';

export interface DateFieldProps {
  id: string;
  /** 'YYYY-MM-DD', or '' for none. */
  value?: string;
  onChange?(value: string): void;
  /** Days before today cannot be chosen (a reply's deadline). */
  notBeforeToday?: boolean;
  disabled?: boolean;
}

export function DateField({ id, value, onChange, notBeforeToday, disabled }: DateFieldProps) {
  return (
    <DatePicker
      id={id}
      value={value ? dayjs(value, ISO_DATE) : null}
      format={ISO_DATE}
      disabled={disabled}
      disabledDate={notBeforeToday ? (day: Dayjs) => day.isBefore(dayjs(), 'day') : undefined}
      onChange={(day: Dayjs | null) => onChange?.(day ? day.format(ISO_DATE) : '')}
      style={{ width: '100%', minWidth: 160 }}
    />
  );
}
