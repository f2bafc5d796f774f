/** Page frame of a signed-in screen: header, main content, footer. */
import type { ReactNode } from 'react';
import { Footer } from './Footer.tsx';

export function PortalLayout({ header, children }: { header: ReactNode; children: ReactNode }) {
  return (
    <div className='app-page page-portal'>
      {header}
      <main className='page-main'>{children}</main>
      <Footer />
    </div>
  );
}
