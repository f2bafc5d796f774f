/**
 * The skeleton every back-office list screen shares (admin and approver, spec section 8): a heading with the
 * screen's buttons and Refresh, then either the load failure with Retry or the screen's content. It pairs with
 * lib/useLoaded.ts, whose result it takes as `load`.
 */
import { ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Space, Typography } from 'antd';
import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The part of useLoaded's result the skeleton reads. */
export interface SectionLoad {
  loading: boolean;
  error: string | null;
  reload(): Promise<void>;
}

export interface LoadedSectionProps {
  /** The heading's id; the section is labelled by it. */
  headingId: string;
  title: ReactNode;
  load: SectionLoad;
  /** The screen's own buttons, shown before Refresh. */
  actions?: ReactNode;
  /** Shown under the heading whatever the load's outcome (an explanation, the filters). */
  intro?: ReactNode;
  /** Shown while the last load did not fail. */
  children: ReactNode;
  /** Always rendered after the content: the screen's modals. */
  modals?: ReactNode;
  errorStyle?: CSSProperties;
}

export function LoadedSection(
  { headingId, title, load, actions, intro, children, modals, errorStyle }: LoadedSectionProps,
) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby={headingId}>
      <Flex align='center' justify='space-between' wrap gap={8}>
        {/* Focusable by script only: where the focus goes when the control that had it is gone. */}
        <Typography.Title level={2} id={headingId} className='section-heading' tabIndex={-1}>
          {title}
        </Typography.Title>
        <Space wrap>
          {actions}
          <Button icon={<ReloadOutlined />} onClick={() => void load.reload()} loading={load.loading}>
            {t('section.refresh')}
          </Button>
        </Space>
      </Flex>
      {intro}
      {load.error ? <LoadFailed message={load.error} onRetry={load.reload} style={errorStyle} /> : children}
      {modals}
    </section>
  );
}

/** A failed load: its message and Retry. */
export function LoadFailed(
  { message, onRetry, style }: { message: string; onRetry(): Promise<void>; style?: CSSProperties },
) {
  const { t } = useTranslation();
  return (
    <Alert
      style={style}
      type='error'
      showIcon
      title={message}
      action={<Button size='small' danger onClick={() => void onRetry()}>{t('section.retry')}</Button>}
    />
  );
}
