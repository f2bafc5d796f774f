/**
 * The tablet's lock screen (issue 10): the list is gone from the screen and the key from memory; the offender's
 * PIN reopens it (tabletSession.ts unlockTablet: the server checks it when it answers, the stored wrap when it
 * does not). Each wrong PIN says how many are left; the fifth deletes the tablet's copy of the mail. Log Off
 * ends the session instead.
 */
import { Alert, Button, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { OFFLINE_TEXTS, wrongPinText } from '../../offline/offlineTexts.ts';
import { unlockTablet } from '../../offline/tabletSession.ts';

export function LockScreen({ onLogOff }: { onLogOff(): void }) {
  const [form] = Form.useForm<{ pin: string }>();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function submit({ pin }: { pin: string }) {
    setBusy(true);
    setProblem(null);
    const outcome = await unlockTablet(pin);
    form.resetFields();
    setBusy(false);
    if (outcome.ok || outcome.reason === 'ended') return;
    if (outcome.reason === 'wrong-pin') setProblem(wrongPinText(outcome.attemptsLeft));
    else if (outcome.reason === 'refused') setProblem(outcome.message ?? OFFLINE_TEXTS.noOfflineUnlock);
    else setProblem(OFFLINE_TEXTS.noOfflineUnlock);
  }

  return (
    <section aria-labelledby='lock-title' className='lock-screen'>
      <Typography.Title level={2} id='lock-title'>
        {OFFLINE_TEXTS.lockTitle}
      </Typography.Title>
      <Typography.Paragraph>{OFFLINE_TEXTS.lockPrompt}</Typography.Paragraph>
      {problem && <Alert type='error' role='alert' showIcon title={problem} className='lock-problem' />}
      <Form form={form} layout='vertical' onFinish={submit} disabled={busy} requiredMark={false}>
        <Form.Item
          label={OFFLINE_TEXTS.lockPin}
          name='pin'
          rules={[{ required: true, whitespace: true, message: OFFLINE_TEXTS.pinRequired }]}
        >
          {/* A shared tablet: nothing may offer to remember the PIN. */}
          <Input.Password autoComplete='off' inputMode='numeric' autoFocus />
        </Form.Item>
        <Button type='primary' htmlType='submit' block loading={busy}>
          {OFFLINE_TEXTS.unlock}
        </Button>
      </Form>
      <Button block className='lock-log-off' onClick={onLogOff}>
        {OFFLINE_TEXTS.lockLogOff}
      </Button>
    </section>
  );
}
