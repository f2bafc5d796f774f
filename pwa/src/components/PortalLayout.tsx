/** Page frame of a signed-in screen: 'Skip to content', header, main content, footer. */
import type { ReactNode } from 'react';
import { Footer } from './Footer.tsx';
import { LanguageOffer } from './LanguageOffer.tsx';
import { MAIN_ID, SkipLink } from './SkipLink.tsx';

export function PortalLayout({ header, children }: { header: ReactNode; children: ReactNode }) {
  return (
    <div className='app-page page-portal'>
      <SkipLink />
      {header}
      <main id={MAIN_ID} className='page-main' tabIndex={-1}>
        <LanguageOffer />
        {children}
      </main>
      <Footer />
    </div>
  );
}
