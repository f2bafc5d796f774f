/**
 * The live password-strength label (spec section 4's Weak, Medium, Strong), announced politely to screen
 * readers. It reads the server's own judgement (usePasswordStrength.ts): Weak is what the server would refuse.
 */
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PasswordOwner } from '../../../contract/rules/password_score.ts';
import { STRENGTH_COLOURS } from './passwordForm.ts';
import { usePasswordStrength } from './usePasswordStrength.ts';

/** Each label's text in the catalogues (the value itself stays the spec's English, read by the styles and tests). */
const STRENGTH_TEXT = {
  Weak: 'passwordStrength.weak',
  Medium: 'passwordStrength.medium',
  Strong: 'passwordStrength.strong',
} as const;

export function PasswordStrengthLabel(
  { password, id, owner }: { password: string; id?: string; owner?: PasswordOwner },
) {
  const { t } = useTranslation();
  const strength = usePasswordStrength(password, owner);
  return (
    <div id={id} aria-live='polite' className='strength-row'>
      {strength && (
        <Typography.Text>
          {t('passwordStrength.label')}{' '}
          <span className='strength-label' data-strength={strength} style={STRENGTH_COLOURS[strength]}>
            {t(STRENGTH_TEXT[strength])}
          </span>
        </Typography.Text>
      )}
    </div>
  );
}
