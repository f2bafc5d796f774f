/**
 * The attorney's 'Representatives': the representatives who named them as supervising attorney, pending ones
 * first, with Accept (pending) and Remove (declines a pending link or ends an accepted one). antd's Table and
 * Popconfirm, loaded with this screen only (AttorneyPortal.tsx's React.lazy: the default export, in the app's antd
 * theme); its toasts are the portal's light ones.
 */
import { UserAddOutlined } from '@ant-design/icons';
import {
  Button,
  Card,
  Empty,
  Form,
  Input,
  List,
  Modal,
  Popconfirm,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AntdTheme } from '../../components/AntdShell.tsx';
import { LoadedSection } from '../../components/LoadedSection.tsx';
import { useToast } from '../../components/useToast.ts';
import { failureMessage } from '../../lib/api.ts';
import { formatDate } from '../../lib/format.ts';
import { useLoaded } from '../../lib/useLoaded.ts';
import { useMediaQuery } from '../../lib/useMediaQuery.ts';
import { NARROW_QUERY } from '../../mail/DocumentTable.tsx';
import {
  acceptRepresentative,
  inviteRepresentative,
  type LinkedRepresentative,
  listRepresentatives,
  removeRepresentative,
  REPRESENTATIVE_TEXTS,
} from './representativesApi.ts';
import { STACKED_TABLE, stackedColumns } from '../../components/stackedTable.ts';

export function RepresentativesScreen({ onChange }: { onChange?(): void }) {
  const { t } = useTranslation();
  const toast = useToast();
  // Below a desktop's width (a phone) the table's five columns do not fit across: a card per representative.
  const narrow = useMediaQuery(NARROW_QUERY);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [inviting, setInviting] = useState(false);
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
      onChange?.();
    } catch (failure) {
      const failed = action === 'accept'
        ? REPRESENTATIVE_TEXTS.acceptFailed
        : REPRESENTATIVE_TEXTS.removeFailed;
      toast.error(failureMessage(failure, { failed }));
    } finally {
      setBusyId(null);
    }
  }

  async function invite(email: string): Promise<boolean> {
    try {
      toast.success(await inviteRepresentative(email.trim()));
      setInviting(false);
      return true;
    } catch (failure) {
      toast.error(failureMessage(failure, { failed: REPRESENTATIVE_TEXTS.inviteFailed }));
      return false;
    }
  }

  // The empty list says how a representative joins: the invitation, or naming this attorney when registering.
  const empty = (
    <Empty
      description={
        <>
          <Typography.Paragraph>{REPRESENTATIVE_TEXTS.empty}</Typography.Paragraph>
          <Typography.Paragraph type='secondary'>{REPRESENTATIVE_TEXTS.emptyHow}</Typography.Paragraph>
        </>
      }
    />
  );

  const status = (row: LinkedRepresentative) =>
    row.link_status === 'accepted'
      ? <Tag color='green'>{t('representatives.acceptedOn', { date: formatDate(row.accepted_at) })}</Tag>
      : <Tag color='orange'>{t('representatives.awaiting')}</Tag>;
  const barNumber = (row: LinkedRepresentative) =>
    row.bar_number ? `${row.bar_number} (${row.bar_state ?? ''})` : '—';
  const actions = (row: LinkedRepresentative, block = false) => (
    <Space orientation={block ? 'vertical' : 'horizontal'} style={block ? { width: '100%' } : undefined}>
      {row.link_status === 'pending' && (
        <Button
          type='primary'
          size={block ? 'large' : 'small'}
          block={block}
          loading={busyId === row.id}
          disabled={busyId !== null && busyId !== row.id}
          aria-label={t('representatives.acceptNamed', { name: row.name })}
          onClick={() => void act(row, 'accept')}
        >
          {t('representatives.accept')}
        </Button>
      )}
      <Popconfirm
        title={REPRESENTATIVE_TEXTS.confirmRemove}
        okText={t('representatives.remove')}
        okButtonProps={{ danger: true }}
        cancelText={t('representatives.cancel')}
        onConfirm={() =>
          act(row, 'remove')}
      >
        <Button
          size={block ? 'large' : 'small'}
          block={block}
          danger
          disabled={busyId !== null}
          aria-label={t('representatives.removeNamed', { name: row.name })}
        >
          {t('representatives.remove')}
        </Button>
      </Popconfirm>
    </Space>
  );

  const columns: ColumnsType<LinkedRepresentative> = [
    { title: t('representatives.columns.name'), dataIndex: 'name', key: 'name' },
    { title: t('representatives.columns.email'), dataIndex: 'email', key: 'email' },
    { title: t('representatives.columns.bar'), key: 'bar', render: (_, row) => barNumber(row) },
    { title: t('representatives.columns.status'), key: 'status', render: (_, row) => status(row) },
    { title: t('representatives.columns.actions'), key: 'actions', render: (_, row) => actions(row) },
  ];

  return (
    <LoadedSection
      headingId='representatives-heading'
      title={REPRESENTATIVE_TEXTS.title}
      load={{ loading, error, reload }}
      intro={<Typography.Paragraph type='secondary'>{REPRESENTATIVE_TEXTS.intro}</Typography.Paragraph>}
      actions={
        <Button icon={<UserAddOutlined />} onClick={() => setInviting(true)}>
          {t('representatives.invite')}
        </Button>
      }
      modals={<InviteModal open={inviting} onSubmit={invite} onCancel={() => setInviting(false)} />}
    >
      {narrow
        ? (
          <List<LinkedRepresentative>
            dataSource={data}
            loading={loading}
            locale={{ emptyText: empty }}
            renderItem={(row) => (
              <List.Item key={row.id}>
                <Card title={row.name} className='representative-card' style={{ width: '100%' }}>
                  <p>{row.email}</p>
                  <p>{t('representatives.barNumber', { bar: barNumber(row) })}</p>
                  <p>{status(row)}</p>
                  {actions(row, true)}
                </Card>
              </List.Item>
            )}
          />
        )
        : (
          <Table<LinkedRepresentative>
            rowKey='id'
            className={STACKED_TABLE}
            columns={stackedColumns(columns)}
            dataSource={data}
            loading={loading}
            pagination={{ hideOnSinglePage: true }}
            locale={{ emptyText: empty }}
            scroll={{ x: true }}
          />
        )}
    </LoadedSection>
  );
}

/** 'Invite a representative': the address their registration link is e-mailed to. */
function InviteModal(props: { open: boolean; onSubmit(email: string): Promise<boolean>; onCancel(): void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ email: string }>();
  const [busy, setBusy] = useState(false);

  async function submit({ email }: { email: string }) {
    setBusy(true);
    const ok = await props.onSubmit(email);
    setBusy(false);
    if (ok) form.resetFields();
  }

  return (
    <Modal
      title={t('representatives.invite')}
      open={props.open}
      okText={t('representatives.sendInvitation')}
      cancelText={t('representatives.cancel')}
      onOk={() => form.submit()}
      confirmLoading={busy}
      onCancel={props.onCancel}
      destroyOnHidden
    >
      <Typography.Paragraph>{t('representatives.inviteIntro')}</Typography.Paragraph>
      <Form form={form} layout='vertical' onFinish={(values) => void submit(values)} preserve={false}>
        <Form.Item
          label={t('representatives.inviteEmail')}
          name='email'
          htmlFor='invite-email'
          rules={[{
            required: true,
            type: 'email',
            whitespace: true,
            message: t('representatives.inviteEmailRule'),
          }]}
        >
          <Input id='invite-email' type='email' autoComplete='off' maxLength={254} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export default function ThemedRepresentativesScreen({ onChange }: { onChange?(): void }) {
  return (
    <AntdTheme>
      <RepresentativesScreen onChange={onChange} />
    </AntdTheme>
  );
}
