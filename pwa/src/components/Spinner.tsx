/** A light loading indicator (a CSS ring and its text) for the screens that carry no antd. */
export function Spinner({ label = 'Loading...', page = false }: { label?: string; page?: boolean }) {
  return (
    <div className={page ? 'spinner page-loading' : 'spinner'} role='status'>
      <span className='spinner-ring' aria-hidden='true' />
      <span className='spinner-text'>{label}</span>
    </div>
  );
}
