/**
 * /portal/offender/sign-ins: the offender's own recent sign-ins (when, from where, and whether after a staff PIN
 * reset), so a sign-in they did not make, by someone who learned the PIN, is there for them to see. Plain markup
 * on the tablet's light path: a table with a caption, 44 px controls (offender.css).
 */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Spinner } from '../../components/Spinner.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { ROLE_HOME } from '../../lib/routing.ts';
import { useLoaded } from '../../lib/useLoaded.ts';
import { fetchSignIns, type SignIn } from './signInsApi.ts';

function place(signIn: SignIn, t: (key: string, values?: Record<string, string>) => string): string {
  const address = signIn.ipAddress ?? '';
  if (signIn.facilityNetwork === true) return t('signIns.facility');
  if (signIn.facilityNetwork === false) return t('signIns.elsewhere', { address });
  return t('signIns.unknownPlace', { address });
}

function how(signIn: SignIn, t: (key: string) => string): string {
  if (signIn.oneTimePin) return t('signIns.oneTimePin');
  return signIn.afterPinReset ? t('signIns.afterReset') : t('signIns.ownPin');
}

export function SignIns() {
  const { t } = useTranslation();
  const loaded = useLoaded(fetchSignIns, [] as SignIn[], { failed: t('signIns.failed') });
  return (
    <section className='sign-ins' aria-labelledby='sign-ins-heading'>
      <h2 id='sign-ins-heading'>{t('signIns.heading')}</h2>
      <p>{t('signIns.intro')}</p>
      <p>
        <Link className='btn' to={ROLE_HOME.offender}>{t('signIns.back')}</Link>
      </p>
      {loaded.loading && <Spinner />}
      {loaded.error && (
        <div className='alert alert-error' role='alert'>
          <span className='alert-title'>{loaded.error}</span>
          <button type='button' className='btn' onClick={() => void loaded.reload()}>
            {t('signIns.retry')}
          </button>
        </div>
      )}
      {!loaded.loading && !loaded.error && loaded.data.length === 0 && <p>{t('signIns.none')}</p>}
      {loaded.data.length > 0 && (
        <table className='sign-ins-table'>
          <caption className='visually-hidden'>{t('signIns.heading')}</caption>
          <thead>
            <tr>
              <th scope='col'>{t('signIns.when')}</th>
              <th scope='col'>{t('signIns.where')}</th>
              <th scope='col'>{t('signIns.how')}</th>
            </tr>
          </thead>
          <tbody>
            {loaded.data.map((signIn, i) => (
              <tr
                key={`${signIn.at}-${i}`}
                className={signIn.afterPinReset ? 'sign-in-after-reset' : undefined}
              >
                <td>{formatDateTime(signIn.at)}</td>
                <td>{place(signIn, t)}</td>
                <td>{signIn.afterPinReset ? <strong>{how(signIn, t)}</strong> : how(signIn, t)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
