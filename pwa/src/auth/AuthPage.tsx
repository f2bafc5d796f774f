/** The frame of the signed-out pages (sign-in, registration, password change, log-off, unauthorized). */
import type { ReactNode } from 'react';
import { Footer } from '../components/Footer.tsx';
import { MAIN_ID, SkipLink } from '../components/SkipLink.tsx';

/** The page centred above the footer. */
export function AuthPage({ children }: { children: ReactNode }) {
  return (
    <div className='app-page page-centered'>
      <SkipLink />
      <main id={MAIN_ID} className='page-main' tabIndex={-1}>{children}</main>
      <Footer />
    </div>
  );
}

/**
 * A form page: the centred card under its level-1 heading. Plain markup styled in styles.css, not antd's Card
 * or Typography: the sign-in page is the first the facility tablet loads, and its path carries no antd
 * (the tablet's 200 KB budget).
 */
export function AuthCard(
  { title, className = 'auth-card', children }: { title: ReactNode; className?: string; children: ReactNode },
) {
  return (
    <AuthPage>
      <section className={`auth-box ${className}`}>
        <h1 className='auth-heading'>{title}</h1>
        {children}
      </section>
    </AuthPage>
  );
}
