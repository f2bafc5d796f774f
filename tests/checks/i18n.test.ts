/** The i18n check itself: silent on the real tree, and loud on each kind of problem. */
import assert from 'node:assert/strict';
import { catalogueKeys, findProblems, literalsIn, unusedKeys } from '../../scripts/check_i18n.ts';

const root = new URL('../..', import.meta.url).pathname;

Deno.test('the real PWA keeps its text in the catalogues and uses every key', async () => {
  assert.deepEqual(await findProblems(root), []);
});

Deno.test('JSX text and the text props are found, in every form they take', () => {
  const found = literalsIn(
    'x.tsx',
    `export const A = () => (
      <div title='Hello' aria-label={busy ? 'Saving' : t('a.b')}>
        Hello there
        {'Loose words'}
        {\`Page \${n}\`}
        <img alt="A logo" />
        <input placeholder={'Type here'} />
      </div>
    );`,
  );
  assert.deepEqual(found.map((f) => f.text), [
    'Hello',
    'Saving',
    'Hello there',
    'Loose words',
    'Page …',
    'A logo',
    'Type here',
  ]);
});

Deno.test('column titles, modal texts and toasts given as literals are found', () => {
  const found = literalsIn(
    'x.ts',
    `const columns = [{ title: 'Name', dataIndex: 'name' }];
     Modal.confirm({ title: t('x.y'), content: 'Are you sure?', okText: 'Yes' });
     toast.error('Failed to load');
     message.success(t('ok.done'));`,
  );
  assert.deepEqual(found.map((f) => f.text), ['Name', 'Are you sure?', 'Yes', 'Failed to load']);
});

Deno.test('what is not text is not reported: keys, symbols, class names, calls, comparisons', () => {
  const found = literalsIn(
    'x.tsx',
    `// A comment with words
     export const A = () => (
       <button className='btn btn-primary' type='submit' title={t('list.view')} aria-label={label}>
         ×{' '}{t('common.close')}{kind === 'error' ? <b /> : null}
       </button>
     );
     const c = { title: 'columns.name', key: 'name' };`,
  );
  assert.deepEqual(found, []);
});

Deno.test('a catalogue key no source names is unused; plurals and refusal codes count as used', () => {
  const keys = catalogueKeys({
    a: { used: 'x', unused: 'y', count_one: '1', count_other: 'n' },
    codes: { x: 'z' },
  });
  assert.deepEqual(keys, ['a.used', 'a.unused', 'a.count_one', 'a.count_other', 'codes.x']);
  assert.deepEqual(unusedKeys(keys, ["t('a.used'); t('a.count', { count })"]), ['a.unused']);
});

Deno.test("the PWA's own success texts are, in English, the API's success messages verbatim", async () => {
  const { SUCCESS } = await import('../../api/http/messages.ts');
  const en = JSON.parse(await Deno.readTextFile(`${root}pwa/src/i18n/en.json`));
  // The screens that show their catalogue's text for a success the API reports.
  const pairs: [string, string][] = [
    [en.approver.approved, SUCCESS.registrationApproved],
    [en.approver.rejected, SUCCESS.registrationRejected],
    [en.representatives.accepted, SUCCESS.representativeAccepted],
    [en.representatives.removed, SUCCESS.representativeRemoved],
    [en.upload.success, SUCCESS.documentUploaded],
    [en.register.success, SUCCESS.registrationSubmitted],
    [en.setPassword.success, SUCCESS.passwordChanged],
    [en.entities.created, SUCCESS.entityCreated],
    [en.users.staffCreated, SUCCESS.staffCreated],
    [en.representatives.invited, SUCCESS.representativeInvited],
    [en.entities.updated, SUCCESS.entityUpdated],
    [en.ipWhitelist.added, SUCCESS.ipRangeAdded],
    [en.ipWhitelist.updated, SUCCESS.ipRangeUpdated],
    [en.ipWhitelist.deleted, SUCCESS.ipRangeDeleted],
    [en.ipWhitelist.activated, SUCCESS.ipRangeActivated],
    [en.ipWhitelist.deactivated, SUCCESS.ipRangeDeactivated],
    [en.settings.updated, SUCCESS.settingUpdated],
    [en.userLanguage.saved, SUCCESS.languageSaved],
    [en.users.activated, SUCCESS.userActivated],
    [en.users.deactivated, SUCCESS.userDeactivated],
    [en.users.unlocked, SUCCESS.accountUnlocked],
    [en.users.offenderAdded, SUCCESS.offenderAdded],
    [en.users.pinReset, SUCCESS.pinReset],
    [en.custody.releasedDone, SUCCESS.userReleased],
    [en.custody.transferredDone, SUCCESS.userTransferred],
  ];
  for (const [shown, api] of pairs) assert.equal(shown, api);
  // The roster import's summary: the catalogue's sentence with each count's plural form (English has one form
  // for both), filled in as the PWA does, is the API's own.
  const { importSummary } = await import('../../api/domain/offenders.ts');
  const imported = en.users.import;
  for (const report of [{ added: 3, updated: 2, rejected: 1 }, { added: 1, updated: 0, rejected: 12 }]) {
    const part = (one: string, other: string, count: number) =>
      (count === 1 ? one : other).replace('{{count}}', String(count));
    const filled = imported.summary
      .replace('{{added}}', part(imported.summaryAdded_one, imported.summaryAdded_other, report.added))
      .replace(
        '{{updated}}',
        part(imported.summaryUpdated_one, imported.summaryUpdated_other, report.updated),
      )
      .replace(
        '{{rejected}}',
        part(imported.summaryRejected_one, imported.summaryRejected_other, report.rejected),
      );
    assert.equal(filled, importSummary({ ...report, rows: [] }));
  }
});

Deno.test("the roster's rules say, in English, the API's own messages", async () => {
  const roster = await import('../../contract/rules/roster.ts');
  const en = JSON.parse(await Deno.readTextFile(`${root}pwa/src/i18n/en.json`));
  const rules: Record<string, string> = en.users.rules;
  for (
    const key of ['docNumber', 'firstName', 'lastName', 'firstNameLong', 'lastNameLong', 'empty', 'tooLarge']
  ) {
    assert.equal(rules[key], roster.ROSTER_MESSAGES[key as keyof typeof roster.ROSTER_MESSAGES], key);
  }
  const fill = (text: string, min: number) => text.replace('{{min}}', String(min)).replace('{{max}}', '12');
  for (const min of [6, 8]) {
    assert.equal(fill(rules.pin, min), roster.pinLengthMessage(min));
    assert.equal(fill(rules.pinHint, min), roster.pinLengthHint(min));
  }
});

Deno.test("every setting has its label and description (and its policy) in each catalogue, the English being the settings catalogue's own", async () => {
  const { SETTINGS } = await import('../../contract/settings.ts');
  for (const language of ['en', 'es']) {
    const catalogue = JSON.parse(await Deno.readTextFile(`${root}pwa/src/i18n/${language}.json`));
    const items: Record<string, Record<string, string>> = catalogue.settingItems;
    // Key for key: a setting without its texts, or texts for a setting that is gone, both fail.
    assert.deepEqual(Object.keys(items).sort(), Object.keys(SETTINGS).sort(), language);
    for (const [key, definition] of Object.entries(SETTINGS)) {
      const parts = ['label', 'description', ...('policy' in definition ? ['policy'] : [])];
      assert.deepEqual(Object.keys(items[key]).sort(), parts.sort(), `${language}: ${key}`);
      if (language === 'en') {
        for (const part of parts) {
          assert.equal(items[key][part], (definition as Record<string, unknown>)[part], `${key}.${part}`);
        }
      }
    }
  }
});
