/** The page footer of spec section 1: 'Powered by' and the vendor logo. Plain markup: it is on every page. */
import vendorLogo from '../assets/vendor-logo.svg';

export function Footer() {
  return (
    <footer className='app-footer'>
      <div className='app-footer-content'>
        <span className='text-secondary'>Powered by</span>
        <img src={vendorLogo} alt='Keystone Mailworks' width={126} height={24} />
      </div>
    </footer>
  );
}
