/** The page footer of spec section 1: 'Powered by' and the vendor logo. */
import { Flex, Typography } from 'antd';
import vendorLogo from '../assets/vendor-logo.svg';

export function Footer() {
  return (
    <footer className='app-footer'>
      <Flex align='center' justify='center' gap={8}>
        <Typography.Text type='secondary'>Powered by</Typography.Text>
        <img src={vendorLogo} alt='Keystone Mailworks' width={126} height={24} />
      </Flex>
    </footer>
  );
}
