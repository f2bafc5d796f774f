/** The page footer of spec section 1: 'Powered by' and the vendor logo. Plain markup: it is on every page. */
import { useTranslation } from 'react-i18next';
import vendorLogo from '../assets/vendor-logo.svg';

export function Footer() {
  const { t } = useTranslation();
  return (
    <footer className='app-footer'>
      <div className='app-footer-content'>
        <span className='text-secondary'>{t('common.poweredBy')}</span>
        <img src={vendorLogo} alt={t('common.vendorLogo')} width={126} height={24} />
      </div>
    </footer>
  );
}
