/** /unauthorized: where the guard sends a signed-in user whose role has no portal. */
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { AuthPage } from './AuthPage.tsx';
import { PATHS } from '../lib/routing.ts';

export function Unauthorized() {
  const navigate = useNavigate();
  const { t } = useTranslation();
  return (
    <AuthPage>
      <Result
        status='403'
        title={<h1 className='result-title'>{t('unauthorized.title')}</h1>}
        subTitle={t('unauthorized.body')}
        extra={
          <Button type='primary' onClick={() => navigate(PATHS.logout)}>
            {t('common.logOff')}
          </Button>
        }
      />
    </AuthPage>
  );
}
