/** /unauthorized: where the guard sends a signed-in user whose role has no portal. */
import { Button, Result } from 'antd';
import { useNavigate } from 'react-router-dom';
import { Footer } from '../components/Footer.tsx';
import { PATHS } from '../lib/routing.ts';

export function Unauthorized() {
  const navigate = useNavigate();
  return (
    <div className='page page-centered'>
      <main className='page-main'>
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
      </main>
      <Footer />
    </div>
  );
}
