/**
 * Admin > Settings (spec sections 2, 4, 8): settings grouped by category with inline Edit / Save / Cancel,
 * one setting at a time. The server checks type and range; its refusal is shown as it is. Edit puts the focus in
 * the value's field; Save and Cancel give it back to that setting's Edit, so a keyboard user keeps their place.
 */
import { Button, Card, Empty, Input, Select, Space, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '../../../components/LoadedSection.tsx';
import { useToast } from '../../../components/useToast.ts';
import { failureMessage } from '../../../lib/api.ts';
import { listSettings, type Setting, updateSetting } from './settingsApi.ts';
import {
  choiceText,
  draftOf,
  formatSettingValue,
  groupSettings,
  matchesSearch,
  parseDraft,
  settingChoices,
  settingDescription,
  settingLabel,
  unitName,
} from './settingsLogic.ts';
import { useLoaded } from '../../../lib/useLoaded.ts';

export function SettingsScreen() {
  const { t } = useTranslation();
  const toast = useToast();
  const [editing, setEditing] = useState<{ key: string; draft: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const [draftError, setDraftError] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  // The setting whose Edit takes the focus back once its editor has gone.
  const [refocus, setRefocus] = useState<string | null>(null);
  useEffect(() => {
    if (refocus === null || editing !== null) return;
    document.querySelector<HTMLElement>(`[data-setting="${refocus}"] button[data-action="edit"]`)?.focus();
    setRefocus(null);
  }, [refocus, editing]);

  function endEdit(key: string) {
    setEditing(null);
    setRefocus(key);
  }

  const { data: settings, setData: setSettings, loading, error: loadError, reload: load } = useLoaded<
    Setting[]
  >(listSettings, [], { failed: t('settings.loadFailed'), error: t('settings.loadError') });

  function startEdit(setting: Setting) {
    setEditing({ key: setting.key, draft: draftOf(setting.value) });
    setDraftError(null);
  }

  async function save(setting: Setting) {
    if (!editing) return;
    const parsed = parseDraft(setting, editing.draft);
    if (!parsed.ok) {
      setDraftError(parsed.message);
      return;
    }
    setSaving(true);
    try {
      // The API's success message is, in English, the catalogue's text (tests/checks/i18n.test.ts).
      await updateSetting(setting.key, parsed.value);
      toast.success(t('settings.updated'));
      setSettings((previous) =>
        previous.map((s) => (s.key === setting.key ? { ...s, value: parsed.value } : s))
      );
      endEdit(setting.key);
    } catch (error) {
      toast.error(
        failureMessage(error, { failed: t('settings.updateFailed'), error: t('settings.updateError') }),
      );
    } finally {
      setSaving(false);
    }
  }

  function editor(setting: Setting, draft: string) {
    const id = `setting-${setting.key}`;
    const label = t('settings.valueOf', { label: settingLabel(setting) });
    const change = (next: string) => {
      setEditing({ key: setting.key, draft: next });
      setDraftError(null);
    };
    if (setting.value.type === 'boolean') {
      return (
        <Select
          id={id}
          aria-label={label}
          autoFocus
          style={{ minWidth: 140 }}
          value={draft}
          onChange={change}
          options={[
            { value: 'true', label: t('settings.enabled') },
            { value: 'false', label: t('settings.disabled') },
          ]}
        />
      );
    }
    const choices = settingChoices(setting.key);
    if (choices) {
      return (
        <Select
          id={id}
          aria-label={label}
          autoFocus
          style={{ minWidth: 200 }}
          value={draft}
          onChange={change}
          options={choices.map((choice) => ({ value: choice, label: choiceText(choice) }))}
        />
      );
    }
    return (
      <Space.Compact>
        <Input
          id={id}
          aria-label={label}
          autoFocus
          type={setting.value.type === 'number' ? 'number' : 'text'}
          inputMode={setting.value.type === 'number' ? 'numeric' : undefined}
          style={{ width: setting.value.type === 'number' ? 140 : 280 }}
          value={draft}
          status={draftError ? 'error' : undefined}
          aria-invalid={draftError ? true : undefined}
          onChange={(event) => change(event.target.value)}
          onPressEnter={() => void save(setting)}
        />
        {setting.value.unit && <Space.Addon>{unitName(setting.value.unit)}</Space.Addon>}
      </Space.Compact>
    );
  }

  function row(setting: Setting, index: number) {
    const isEditing = editing?.key === setting.key;
    return (
      <div
        key={setting.key}
        className='setting-row'
        data-setting={setting.key}
        style={{ padding: '12px 0', borderTop: index > 0 ? '1px solid #f0f0f0' : undefined }}
      >
        <Space orientation='vertical' size={4} style={{ width: '100%' }}>
          <Typography.Text strong>{settingLabel(setting)}</Typography.Text>
          <Typography.Text type='secondary'>{settingDescription(setting)}</Typography.Text>
          <Space wrap align='center'>
            {isEditing
              ? editor(setting, editing.draft)
              : <span>{formatSettingValue(setting.value, setting.key)}</span>}
            {isEditing
              ? (
                <>
                  <Button
                    type='primary'
                    size='small'
                    loading={saving}
                    aria-label={t('settings.saveNamed', { label: settingLabel(setting) })}
                    onClick={() => void save(setting)}
                  >
                    {t('settings.save')}
                  </Button>
                  <Button
                    size='small'
                    disabled={saving}
                    aria-label={t('settings.cancelNamed', { label: settingLabel(setting) })}
                    onClick={() => endEdit(setting.key)}
                  >
                    {t('settings.cancel')}
                  </Button>
                </>
              )
              : (
                <Button
                  size='small'
                  disabled={editing !== null}
                  data-action='edit'
                  aria-label={t('settings.editNamed', { label: settingLabel(setting) })}
                  onClick={() => startEdit(setting)}
                >
                  {t('settings.edit')}
                </Button>
              )}
          </Space>
          {isEditing && draftError && (
            <Typography.Text type='danger' role='alert'>{draftError}</Typography.Text>
          )}
        </Space>
      </div>
    );
  }

  if (loadError) {
    return <LoadFailed message={loadError} onRetry={load} />;
  }
  const groups = groupSettings(settings.filter((setting) => matchesSearch(setting, query)));
  return (
    <Spin spinning={loading}>
      <Space orientation='vertical' size='middle' style={{ width: '100%' }}>
        <Input.Search
          allowClear
          aria-label={t('settings.search')}
          placeholder={t('settings.search')}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          style={{ maxWidth: 360 }}
        />
        {!loading && groups.length === 0 && (
          <Empty description={settings.length === 0 ? t('settings.empty') : t('settings.noMatch')} />
        )}
        {groups.map((group) => (
          <Card key={group.key} title={group.label} data-category={group.key}>
            {group.settings.map(row)}
          </Card>
        ))}
      </Space>
    </Spin>
  );
}
