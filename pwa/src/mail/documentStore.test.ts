import assert from 'node:assert/strict';
import { createDocumentStore, mergeByDocumentId } from './documentStore.ts';

Deno.test('appending de-duplicates by documentid, the later entry winning in place', () => {
  const merged = mergeByDocumentId(
    [{ documentid: 1, name: 'a' }, { documentid: 2, name: 'b' }],
    [{ documentid: 2, name: 'b2' }, { documentid: 3, name: 'c' }, { documentid: 3, name: 'c2' }],
  );
  assert.deepEqual(merged, [{ documentid: 1, name: 'a' }, { documentid: 2, name: 'b2' }, {
    documentid: 3,
    name: 'c2',
  }]);
});

Deno.test('the store adds, replaces, appends and clears, telling subscribers each time', () => {
  const store = createDocumentStore();
  const sizes: number[] = [];
  const unsubscribe = store.subscribe((docs) => sizes.push(docs.length));
  store.add({ documentid: 'x' });
  store.append([{ documentid: 'x' }, { documentid: 'y' }]);
  store.replaceAll([{ documentid: 'z' }]);
  store.clear();
  unsubscribe();
  store.add({ documentid: 'w' });
  assert.deepEqual(sizes, [1, 2, 1, 0]);
  assert.deepEqual(store.list(), [{ documentid: 'w' }]);
});
