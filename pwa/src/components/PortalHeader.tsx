/**
 * The header every portal shares: the department title ('{abbreviation}
 * Attorney/Client Mail'), an optional sub-heading, optional extra details and
 * buttons, and Log Off.
 */
import { LogoutOutlined } from '@ant-design/icons';
import { Button, Flex, Typography } from 'antd';
import type { ReactNode } from 'react';
import portalLogo from '../assets/portal-logo.svg';
import { portalTitle } from '../lib/config.ts';
import { useAppConfig } from './AppConfigProvider.tsx';

export interface PortalHeaderProps {
  subtitle?: string;
  /** Shown under the titles (e.g. the offender's DOC ID Number). */
  details?: ReactNode;
  /** Buttons placed before Log Off. */
  actions?: ReactNode;
  onLogOff(): void;
}

export function PortalHeader({ subtitle, details, actions, onLogOff }: PortalHeaderProps) {
  const config = useAppConfig();
  return (
    <header className='portal-header'>
      <Flex align='center' justify='space-between' wrap gap={16}>
        <Flex align='center' gap={16}>
          <img src={portalLogo} alt='' width={48} height={48} />
          <div>
            <Typography.Title level={1} className='portal-title'>
              {portalTitle(config)}
            </Typography.Title>
            {subtitle && (
              <Typography.Title level={2} className='portal-subtitle'>
                {subtitle}
              </Typography.Title>
            )}
            {details}
          </div>
        </Flex>
        <Flex gap={8} wrap>
          {actions}
          <Button icon={<LogoutOutlined />} onClick={onLogOff}>
            Log Off
          </Button>
        </Flex>
      </Flex>
    </header>
  );
}
