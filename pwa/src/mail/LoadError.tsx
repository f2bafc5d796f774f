/** The red load-failure message with 'Try Again' (attorney and representative portals, spec section 2). */
import { Alert, Button } from 'antd';

export function LoadError({ message, onRetry }: { message: string; onRetry(): void }) {
  return (
    <Alert
      className='documents-load-error'
      type='error'
      showIcon
      role='alert'
      title={message}
      action={<Button danger onClick={onRetry}>Try Again</Button>}
    />
  );
}
