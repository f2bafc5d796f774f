/** A light loading indicator (a CSS ring and its text) for the screens that carry no antd. */
import { useTranslation } from 'react-i18next';

export function Spinner({ label, page = false }: { label?: string; page?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className={page ? 'spinner page-loading' : 'spinner'} role='status'>
      <span className='spinner-ring' aria-hidden='true' />
      <span className='spinner-text'>{label ?? t('common.loading')}</span>
    </div>
  );
}
