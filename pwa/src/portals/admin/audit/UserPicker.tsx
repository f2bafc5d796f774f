/**
 * The audit log's User filter: the admin types a name, an e-mail address or a DOC number and picks the user from
 * their own entity's matches; the filter's value underneath stays the user's id, as the API takes it. A pasted id
 * is offered as it is (an event's user may since have been removed, or belong to no one).
 */
import { Select } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { contactText, SEARCH_DEBOUNCE_MS, userName } from '../users/usersLogic.ts';
import { searchUsers } from './auditApi.ts';
import { userChoiceLabel, userIdTyped } from './auditFilters.ts';

interface Choice {
  value: string;
  label: string;
}

export function UserPicker(props: { id: string; value?: string; onChange?: (value: string) => void }) {
  const { t } = useTranslation();
  const [choices, setChoices] = useState<Choice[]>([]);
  const [searching, setSearching] = useState(false);
  // What is being typed: while there is some, only its matches are offered.
  const [query, setQuery] = useState('');
  // The label of the user picked, kept so the field still names them once the search has moved on.
  const [picked, setPicked] = useState<Choice | null>(null);
  const pending = useRef<{ timer?: ReturnType<typeof setTimeout>; controller?: AbortController }>({});

  useEffect(() => () => {
    clearTimeout(pending.current.timer);
    pending.current.controller?.abort();
  }, []);

  function search(text: string) {
    clearTimeout(pending.current.timer);
    pending.current.controller?.abort();
    const typed = text.trim();
    setQuery(typed);
    if (!typed) {
      setChoices([]);
      setSearching(false);
      return;
    }
    const asId = userIdTyped(typed);
    setSearching(true);
    pending.current.timer = setTimeout(() => {
      const controller = new AbortController();
      pending.current.controller = controller;
      searchUsers(typed, controller.signal)
        .then((users) => {
          const found = users.map((user) => ({
            value: user.id,
            label: userChoiceLabel(userName(user), contactText(user)),
          }));
          if (asId && !found.some((c) => c.value.toLowerCase() === asId)) {
            found.unshift({ value: asId, label: t('audit.userIdChoice', { id: asId }) });
          }
          setChoices(found);
        })
        .catch(() => {
          if (!controller.signal.aborted) {
            setChoices(asId ? [{ value: asId, label: t('audit.userIdChoice', { id: asId }) }] : []);
          }
        })
        .finally(() => {
          if (!controller.signal.aborted) setSearching(false);
        });
    }, SEARCH_DEBOUNCE_MS);
  }

  const value = props.value || undefined;
  // The picked user stays among the options, so the field shows their name rather than the bare id.
  const options = !query && picked && picked.value === value && !choices.some((c) => c.value === picked.value)
    ? [picked, ...choices]
    : choices;

  return (
    <Select
      id={props.id}
      className='audit-user-picker'
      showSearch={{ filterOption: false, onSearch: search }}
      allowClear
      value={value}
      placeholder={t('audit.userPlaceholder')}
      notFoundContent={searching ? t('audit.userSearching') : t('audit.userNone')}
      loading={searching}
      style={{ width: 320, maxWidth: '100%' }}
      options={options}
      onBlur={() => setQuery('')}
      onChange={(next: string | undefined) => {
        const choice = options.find((c) => c.value === next) ?? null;
        setPicked(choice);
        setQuery('');
        props.onChange?.(next ?? '');
      }}
    />
  );
}
