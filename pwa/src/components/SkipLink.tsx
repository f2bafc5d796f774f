/**
 * 'Skip to content': the first thing Tab reaches on every page, hidden until it has the keyboard's focus. It
 * moves the focus to the page's main region, so a keyboard or screen-reader user passes the header's buttons
 * in one key press. A plain link with its own handler, not a `#` jump: the router would treat a new hash as a
 * navigation.
 */
import { useTranslation } from 'react-i18next';

/** The id of the `<main>` the link leads to (PortalLayout, AuthPage). */
export const MAIN_ID = 'main-content';

export function SkipLink() {
  const { t } = useTranslation();
  return (
    <a
      className='skip-link'
      href={`#${MAIN_ID}`}
      onClick={(event) => {
        event.preventDefault();
        const main = document.getElementById(MAIN_ID);
        main?.focus();
        main?.scrollIntoView({ block: 'start' });
      }}
    >
      {t('common.skipToContent')}
    </a>
  );
}
