/** The red load-failure message with 'Try Again' (attorney and representative portals, spec section 2). Plain markup: shown on the lists' path. */
import { useTranslation } from 'react-i18next';

export function LoadError({ message, onRetry }: { message: string; onRetry(): void }) {
  const { t } = useTranslation();
  return (
    <div className='alert alert-error documents-load-error' role='alert'>
      <span className='alert-title'>{message}</span>
      <button type='button' className='btn btn-danger' onClick={onRetry}>{t('sender.tryAgain')}</button>
    </div>
  );
}
