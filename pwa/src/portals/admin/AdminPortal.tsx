/**
 * /portal/admin/*: the sidebar (Users, Entities, Audit Logs, Settings, IP
 * Whitelist) beside the selected section; the default view is the dashboard
 * welcome. Each section gets its own route so later work can fill it in.
 */
import {
  AuditOutlined,
  BankOutlined,
  DashboardOutlined,
  GlobalOutlined,
  MenuOutlined,
  SettingOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import { Layout, Menu } from 'antd';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import { PortalHeader } from '../../components/PortalHeader.tsx';
import { PortalLayout } from '../../components/PortalLayout.tsx';
import { useLogOff } from '../../components/useLogOff.ts';
import { ROLE_HOME } from '../../lib/routing.ts';
import { AdminDashboard } from './AdminDashboard.tsx';
import { AuditLogsScreen } from './audit/AuditLogsScreen.tsx';
import { EntitiesScreen } from './entities/EntitiesScreen.tsx';
import { SettingsSection } from './settings/SettingsSection.tsx';
import { IpWhitelistScreen } from './ipWhitelist/IpWhitelistScreen.tsx';
import { UsersScreen } from './users/UsersScreen.tsx';
import { signedInAsDepartmentAdmin } from './departmentAdmin.ts';
import { type AdminSectionKey, sectionForPath, sectionsFor } from './sections.ts';

const ICONS: Record<AdminSectionKey, ReactNode> = {
  users: <TeamOutlined />,
  entities: <BankOutlined />,
  'audit-logs': <AuditOutlined />,
  settings: <SettingOutlined />,
  'ip-whitelist': <GlobalOutlined />,
};

/** The screen of each section. */
const SCREENS: Record<AdminSectionKey, ReactNode> = {
  'audit-logs': <AuditLogsScreen />,
  users: <UsersScreen />,
  entities: <EntitiesScreen />,
  settings: <SettingsSection />,
  'ip-whitelist': <IpWhitelistScreen />,
};

const DASHBOARD_KEY = 'dashboard';

export function AdminPortal() {
  const { t } = useTranslation();
  const logOff = useLogOff('to-login');
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const selected = sectionForPath(pathname) ?? DASHBOARD_KEY;
  // Below the md breakpoint (a phone, a tablet held upright) the menu folds away behind a button of our own: antd's
  // zero-width trigger is drawn under the content and reached by neither Tab nor a screen reader.
  const [narrow, setNarrow] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  // The menu stands before the button in the page, so the focus goes into it when it opens (a Tab would leave it).
  useEffect(() => {
    if (!menuOpen) return;
    const menu = document.getElementById('admin-menu');
    menu?.querySelector<HTMLElement>('.ant-menu-item-selected, [role="menuitem"]')?.focus();
  }, [menuOpen]);
  const closeMenu = (returnFocus: boolean) => {
    setMenuOpen(false);
    if (returnFocus) toggle.current?.focus();
  };
  const sections = sectionsFor(signedInAsDepartmentAdmin());
  const items = [
    { key: DASHBOARD_KEY, icon: <DashboardOutlined />, label: t('adminSections.dashboard') },
    ...sections.map((section) => ({
      key: section.key,
      icon: ICONS[section.key],
      label: t(section.label),
    })),
  ];

  return (
    <PortalLayout header={<PortalHeader onLogOff={logOff} />}>
      <Layout className='admin-layout'>
        <Layout.Sider
          breakpoint='md'
          collapsedWidth={0}
          collapsed={narrow && !menuOpen}
          trigger={null}
          onBreakpoint={(broken) => {
            setNarrow(broken);
            setMenuOpen(false);
          }}
          theme='light'
          width={220}
          className={narrow ? 'admin-sider admin-sider-narrow' : 'admin-sider'}
        >
          <nav
            id='admin-menu'
            aria-label={t('adminSections.nav')}
            hidden={narrow && !menuOpen}
            onKeyDown={(event) => {
              if (narrow && event.key === 'Escape') closeMenu(true);
            }}
          >
            <Menu
              mode='inline'
              selectedKeys={[selected]}
              items={items}
              onClick={({ key }) => {
                if (narrow) closeMenu(false);
                navigate(key === DASHBOARD_KEY ? ROLE_HOME.admin : `${ROLE_HOME.admin}/${key}`);
              }}
            />
          </nav>
        </Layout.Sider>
        <Layout.Content className='admin-content'>
          {narrow && (
            <button
              ref={toggle}
              type='button'
              className='admin-menu-toggle'
              aria-expanded={menuOpen}
              aria-controls='admin-menu'
              onClick={() => setMenuOpen((open) => !open)}
            >
              <MenuOutlined aria-hidden /> {t('adminSections.menu')}
            </button>
          )}
          <Routes>
            <Route index element={<AdminDashboard />} />
            {sections.map((section) => (
              <Route
                key={section.key}
                path={`${section.key}/*`}
                element={SCREENS[section.key]}
              />
            ))}
            <Route path='*' element={<Navigate to={ROLE_HOME.admin} replace />} />
          </Routes>
        </Layout.Content>
      </Layout>
    </PortalLayout>
  );
}
