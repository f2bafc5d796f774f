/**
 * The attorney's 'Representatives': the representatives who named them as supervising attorney, pending ones
 * first, with Accept (pending) and Remove (declines a pending link or ends an accepted one). antd's Table and
 * Popconfirm, loaded with this screen only (AttorneyPortal.tsx's React.lazy: the default export, in the app's antd
 * theme); its toasts are the portal's light ones.
 */
import { Button, Empty, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { AntdTheme } from '../../components/AntdShell.tsx';
import { LoadedSection } from '../../components/LoadedSection.tsx';
import { useToast } from '../../components/useToast.ts';
import { failureMessage } from '../../lib/api.ts';
import { formatDate } from '../../lib/format.ts';
import { useLoaded } from '../../lib/useLoaded.ts';
import {
  acceptRepresentative,
  type LinkedRepresentative,
  listRepresentatives,
  removeRepresentative,
  REPRESENTATIVE_TEXTS,
} from './representativesApi.ts';

export function RepresentativesScreen() {
  const toast = useToast();
  const [busyId, setBusyId] = useState<string | null>(null);
  const { data, loading, error, reload } = useLoaded<LinkedRepresentative[]>(listRepresentatives, [], {
    failed: REPRESENTATIVE_TEXTS.loadFailed,
    error: REPRESENTATIVE_TEXTS.loadFailed,
  });

  async function act(row: LinkedRepresentative, action: 'accept' | 'remove') {
    setBusyId(row.id);
    try {
      const message = action === 'accept'
        ? await acceptRepresentative(row.id)
        : await removeRepresentative(row.id);
      toast.success(message);
      await reload();
    } catch (failure) {
      const failed = action === 'accept'
        ? REPRESENTATIVE_TEXTS.acceptFailed
        : REPRESENTATIVE_TEXTS.removeFailed;
      toast.error(failureMessage(failure, { failed }));
    } finally {
      setBusyId(null);
    }
  }

  const columns: ColumnsType<LinkedRepresentative> = [
    { title: 'Name', dataIndex: 'name', key: 'name' },
    { title: 'Email', dataIndex: 'email', key: 'email' },
    {
      title: 'Bar Number',
      key: 'bar',
      render: (_, row) => (row.bar_number ? `${row.bar_number} (${row.bar_state ?? ''})` : '—'),
    },
    {
      title: 'Status',
      key: 'status',
      render: (_, row) =>
        row.link_status === 'accepted'
          ? <Tag color='green'>Accepted {formatDate(row.accepted_at)}</Tag>
          : <Tag color='orange'>Awaiting your acceptance</Tag>,
    },
    {
      title: 'Actions',
      key: 'actions',
      render: (_, row) => (
        <Space>
          {row.link_status === 'pending' && (
            <Button
              type='primary'
              size='small'
              loading={busyId === row.id}
              disabled={busyId !== null && busyId !== row.id}
              aria-label={`Accept ${row.name}`}
              onClick={() => void act(row, 'accept')}
            >
              Accept
            </Button>
          )}
          <Popconfirm
            title={REPRESENTATIVE_TEXTS.confirmRemove}
            okText='Remove'
            okButtonProps={{ danger: true }}
            cancelText='Cancel'
            onConfirm={() => act(row, 'remove')}
          >
            <Button size='small' danger disabled={busyId !== null} aria-label={`Remove ${row.name}`}>
              Remove
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <LoadedSection
      headingId='representatives-heading'
      title={REPRESENTATIVE_TEXTS.title}
      load={{ loading, error, reload }}
      intro={<Typography.Paragraph type='secondary'>{REPRESENTATIVE_TEXTS.intro}</Typography.Paragraph>}
    >
      <Table<LinkedRepresentative>
        rowKey='id'
        columns={columns}
        dataSource={data}
        loading={loading}
        pagination={{ hideOnSinglePage: true }}
        locale={{ emptyText: <Empty description={REPRESENTATIVE_TEXTS.empty} /> }}
        scroll={{ x: true }}
      />
    </LoadedSection>
  );
}

export default function ThemedRepresentativesScreen() {
  return (
    <AntdTheme>
      <RepresentativesScreen />
    </AntdTheme>
  );
}
