/** The frame of the signed-out pages (sign-in, registration, password change, log-off, unauthorized). */
import { Typography } from 'antd';
import type { ReactNode } from 'react';
import { Footer } from '../components/Footer.tsx';

/** The page centred above the footer. */
export function AuthPage({ children }: { children: ReactNode }) {
  return (
    <div className='page page-centered'>
      <main className='page-main'>{children}</main>
      <Footer />
    </div>
  );
}

/**
 * A form page: the centred card under its level-1 heading. A plain box styled in styles.css, not antd's Card:
 * Card pulls in Tabs, Dropdown and Menu (its tab bar), about 20 KB of compressed JavaScript on the sign-in
 * page the facility tablet loads first (issue 12's budget).
 */
export function AuthCard(
  { title, className = 'auth-card', children }: { title: ReactNode; className?: string; children: ReactNode },
) {
  return (
    <AuthPage>
      <section className={`auth-box ${className}`}>
        <Typography.Title level={1} className='auth-heading'>
          {title}
        </Typography.Title>
        {children}
      </section>
    </AuthPage>
  );
}
