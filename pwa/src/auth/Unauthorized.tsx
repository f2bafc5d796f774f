/** /unauthorized: where the guard sends a signed-in user whose role has no portal. */
import { Button, Result } from 'antd';
import { useNavigate } from 'react-router-dom';
import { AuthPage } from './AuthPage.tsx';
import { PATHS } from '../lib/routing.ts';

export function Unauthorized() {
  const navigate = useNavigate();
  return (
    <AuthPage>
      <Result
        status='403'
        title={<h1 className='result-title'>Unauthorized</h1>}
        subTitle='Your account does not have access to this page.'
        extra={
          <Button type='primary' onClick={() => navigate(PATHS.logout)}>
            Log Off
          </Button>
        }
      />
    </AuthPage>
  );
}
