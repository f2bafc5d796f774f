/** The live password-strength label (spec section 4), announced politely to screen readers. */
import { Typography } from 'antd';
import { passwordStrength, STRENGTH_COLOURS } from './passwordForm.ts';

export function PasswordStrengthLabel({ password, id }: { password: string; id?: string }) {
  const strength = passwordStrength(password);
  return (
    <div id={id} aria-live='polite' className='strength-row'>
      {strength && (
        <Typography.Text>
          Password strength:{' '}
          <span className='strength-label' data-strength={strength} style={STRENGTH_COLOURS[strength]}>
            {strength}
          </span>
        </Typography.Text>
      )}
    </div>
  );
}
