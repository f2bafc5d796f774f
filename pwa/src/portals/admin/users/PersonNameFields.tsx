/**
 * The first and last name of a person an admin adds (an offender or a staff member), with the rules the API
 * applies: required, not blank, at most the roster's name length.
 */
import { Form, Input } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { OFFENDER_RULES } from '../../../../../contract/rules/roster.ts';

function nameRules(required: string, long: string): Rule[] {
  return [
    { required: true, whitespace: true, message: required },
    { max: OFFENDER_RULES.nameMax, message: long },
  ];
}

/** The two name fields inside an antd Form; `idPrefix` keeps their ids apart from another form's. */
export function PersonNameFields({ idPrefix }: { idPrefix: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item
        label={t('users.offenderForm.firstName')}
        name='firstName'
        htmlFor={`${idPrefix}-first-name`}
        rules={nameRules(t('users.rules.firstName'), t('users.rules.firstNameLong'))}
      >
        <Input id={`${idPrefix}-first-name`} autoComplete='off' />
      </Form.Item>
      <Form.Item
        label={t('users.offenderForm.lastName')}
        name='lastName'
        htmlFor={`${idPrefix}-last-name`}
        rules={nameRules(t('users.rules.lastName'), t('users.rules.lastNameLong'))}
      >
        <Input id={`${idPrefix}-last-name`} autoComplete='off' />
      </Form.Item>
    </>
  );
}
