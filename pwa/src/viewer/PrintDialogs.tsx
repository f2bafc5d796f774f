/**
 * What the print flow shows: the refusal of spec section 2, the choice of all
 * pages or a page range, and a progress bar while the pages are drawn.
 */
import { Alert, Button, Form, Input, Modal, Progress, Radio, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../lib/format.ts';
import { allPages, parsePageRanges } from './pageRanges.ts';
import type { PrintFlow } from './usePrint.ts';

function PageChoice({ pageCount, flow }: { pageCount: number; flow: PrintFlow }) {
  const { t } = useTranslation();
  const [which, setWhich] = useState<'all' | 'range'>('all');
  const [range, setRange] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setWhich('all');
    setRange('');
    setError(null);
  }, [flow.phase.kind]);

  const submit = () => {
    if (which === 'all') return flow.printPages(allPages(pageCount));
    const { pages, invalid } = parsePageRanges(range, pageCount);
    if (invalid.length > 0) return setError(t('print.notARange', { items: invalid.join(', ') }));
    if (pages.length === 0) return setError(t('print.enterPages', { last: pageCount }));
    flow.printPages(pages);
  };

  return (
    <Modal
      open={flow.phase.kind === 'choosing'}
      title={t('print.title')}
      okText={t('print.submit')}
      onOk={submit}
      onCancel={flow.close}
      destroyOnHidden
    >
      <Form layout='vertical' onFinish={submit}>
        <Radio.Group
          aria-label={t('print.which')}
          value={which}
          onChange={(event) => {
            setWhich(event.target.value);
            setError(null);
          }}
        >
          <Space orientation='vertical'>
            <Radio value='all'>{t('print.all')}</Radio>
            <Radio value='range'>{t('print.some')}</Radio>
          </Space>
        </Radio.Group>
        <Form.Item
          label={t('print.range')}
          htmlFor='viewer-print-range'
          help={error ?? t('print.rangeHelp', { last: pageCount })}
          validateStatus={error ? 'error' : undefined}
          className='viewer-print-range'
        >
          <Input
            id='viewer-print-range'
            value={range}
            placeholder='1-3, 5, 7-9'
            onFocus={() => setWhich('range')}
            onChange={(event) => {
              setRange(event.target.value);
              setWhich('range');
              setError(null);
            }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export function PrintDialogs({ pageCount, flow }: { pageCount: number; flow: PrintFlow }) {
  const { t } = useTranslation();
  const { phase } = flow;
  const preparing = phase.kind === 'preparing' || phase.kind === 'ready';
  const percent = phase.kind === 'preparing' && phase.total > 0
    ? Math.round((phase.done / phase.total) * 100)
    : phase.kind === 'ready'
    ? 100
    : 0;
  return (
    <>
      <PageChoice pageCount={pageCount} flow={flow} />
      <Modal
        open={phase.kind === 'cancelled'}
        title={t('print.title')}
        onCancel={flow.close}
        footer={<Button type='primary' onClick={flow.close}>{t('common.close')}</Button>}
      >
        <Alert type='warning' showIcon title={t('print.notAllowed')} />
      </Modal>
      <Modal
        open={phase.kind === 'failed'}
        title={t('print.title')}
        onCancel={flow.close}
        footer={<Button type='primary' onClick={flow.close}>{t('common.close')}</Button>}
      >
        <Alert type='error' showIcon title={phase.kind === 'failed' ? phase.message : ''} />
      </Modal>
      <Modal
        open={preparing}
        title={t('print.preparing')}
        closable={false}
        mask={{ closable: false }}
        footer={<Button onClick={flow.close}>{t('print.cancel')}</Button>}
      >
        <Progress percent={percent} aria-label={t('print.progress')} />
        {phase.kind === 'preparing' && (
          <Typography.Text type='secondary' role='status'>
            {t('print.pageOf', { done: formatNumber(phase.done), total: formatNumber(phase.total) })}
          </Typography.Text>
        )}
      </Modal>
    </>
  );
}
