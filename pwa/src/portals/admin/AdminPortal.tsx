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
  SettingOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import { Layout, Menu } from 'antd';
import type { ReactNode } from 'react';
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
        <Layout.Sider breakpoint='md' collapsedWidth={0} theme='light' width={220} className='admin-sider'>
          <nav aria-label={t('adminSections.nav')}>
            <Menu
              mode='inline'
              selectedKeys={[selected]}
              items={items}
              onClick={({ key }) =>
                navigate(key === DASHBOARD_KEY ? ROLE_HOME.admin : `${ROLE_HOME.admin}/${key}`)}
            />
          </nav>
        </Layout.Sider>
        <Layout.Content className='admin-content'>
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
