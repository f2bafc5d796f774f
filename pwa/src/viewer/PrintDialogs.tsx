/**
 * What the print flow shows: the refusal of spec section 2, the choice of all
 * pages or a page range, and a progress bar while the pages are drawn.
 */
import { Alert, Button, Form, Input, Modal, Progress, Radio, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { allPages, parsePageRanges } from './pageRanges.ts';
import { PRINT_NOT_ALLOWED } from './print.ts';
import type { PrintFlow } from './usePrint.ts';

function PageChoice({ pageCount, flow }: { pageCount: number; flow: PrintFlow }) {
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
    if (invalid.length > 0) return setError(`Not a page or range: ${invalid.join(', ')}`);
    if (pages.length === 0) return setError(`Enter pages between 1 and ${pageCount}, for example 1-3, 5.`);
    flow.printPages(pages);
  };

  return (
    <Modal
      open={flow.phase.kind === 'choosing'}
      title='Print'
      okText='Print'
      onOk={submit}
      onCancel={flow.close}
      destroyOnHidden
    >
      <Form layout='vertical' onFinish={submit}>
        <Radio.Group
          aria-label='Pages to print'
          value={which}
          onChange={(event) => {
            setWhich(event.target.value);
            setError(null);
          }}
        >
          <Space orientation='vertical'>
            <Radio value='all'>All pages</Radio>
            <Radio value='range'>Pages</Radio>
          </Space>
        </Radio.Group>
        <Form.Item
          label='Page range'
          htmlFor='viewer-print-range'
          help={error ?? `Comma-separated pages and ranges, for example 1-3, 5, 7-9 (1 to ${pageCount}).`}
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
        title='Print'
        onCancel={flow.close}
        footer={<Button type='primary' onClick={flow.close}>Close</Button>}
      >
        <Alert type='warning' showIcon title={PRINT_NOT_ALLOWED} />
      </Modal>
      <Modal
        open={phase.kind === 'failed'}
        title='Print'
        onCancel={flow.close}
        footer={<Button type='primary' onClick={flow.close}>Close</Button>}
      >
        <Alert type='error' showIcon title={phase.kind === 'failed' ? phase.message : ''} />
      </Modal>
      <Modal
        open={preparing}
        title='Preparing document for printing...'
        closable={false}
        mask={{ closable: false }}
        footer={<Button onClick={flow.close}>Cancel</Button>}
      >
        <Progress percent={percent} aria-label='Print preparation progress' />
        {phase.kind === 'preparing' && (
          <Typography.Text type='secondary'>
            Page {phase.done} of {phase.total}
          </Typography.Text>
        )}
      </Modal>
    </>
  );
}
