import assert from 'node:assert/strict';
import {
  type ChannelLike,
  createSessionChannel,
  endsSession,
  SESSION_ENDED,
  type StorageChange,
} from './sessionChannel.ts';

/** BroadcastChannel's delivery: every other object on the hub, never the sender. */
class Hub {
  readonly members = new Set<FakeChannel>();
  open = () => {
    const channel = new FakeChannel(this);
    this.members.add(channel);
    return channel;
  };
}

class FakeChannel implements ChannelLike {
  readonly listeners = new Set<(event: { data: unknown }) => void>();
  constructor(private readonly hub: Hub) {}
  postMessage(data: unknown) {
    for (const other of this.hub.members) {
      if (other !== this) { for (const l of other.listeners) l({ data }); }
    }
  }
  addEventListener(_type: 'message', l: (event: { data: unknown }) => void) {
    this.listeners.add(l);
  }
  removeEventListener(_type: 'message', l: (event: { data: unknown }) => void) {
    this.listeners.delete(l);
  }
}

/** One window: its channel and the storage events it would receive. */
function makeWindow(hub: Hub | null) {
  const storageListeners = new Set<(change: StorageChange) => void>();
  const channel = createSessionChannel({
    tokenKey: 'guid',
    openChannel: hub ? hub.open : () => null,
    onStorage(listener) {
      storageListeners.add(listener);
      return () => storageListeners.delete(listener);
    },
  });
  return { channel, storage: (change: StorageChange) => storageListeners.forEach((l) => l(change)) };
}

Deno.test('an announcement reaches every other window, not the one that made it', () => {
  const hub = new Hub();
  const main = makeWindow(hub);
  const popup = makeWindow(hub);
  let mainHeard = 0;
  let popupHeard = 0;
  main.channel.subscribe(() => mainHeard++);
  popup.channel.subscribe(() => popupHeard++);
  main.channel.announce();
  assert.equal(popupHeard, 1);
  assert.equal(mainHeard, 0, 'its own /logout screen is not cut short');
});

Deno.test('unsubscribing stops the reaction; the window keeps hearing later sessions while subscribed', () => {
  const hub = new Hub();
  const main = makeWindow(hub);
  const popup = makeWindow(hub);
  let heard = 0;
  const stop = popup.channel.subscribe(() => heard++);
  main.channel.announce();
  main.channel.announce();
  assert.equal(heard, 2, 'not latched: the next session ends too');
  stop();
  main.channel.announce();
  assert.equal(heard, 2);
});

Deno.test('without BroadcastChannel, the removed or replaced token in storage carries the end', () => {
  const popup = makeWindow(null);
  let heard = 0;
  popup.channel.subscribe(() => heard++);
  popup.channel.announce(); // No channel: does not throw.
  popup.storage({ key: 'guid', oldValue: 'tok', newValue: null });
  assert.equal(heard, 1);
  popup.storage({ key: 'guid', oldValue: 'tok', newValue: 'another-sign-in' });
  assert.equal(heard, 2);
  popup.storage({ key: null, oldValue: null, newValue: null });
  assert.equal(heard, 3, 'localStorage.clear()');
});

Deno.test('only an ended session counts as an end', () => {
  assert.equal(endsSession({ key: 'guid', oldValue: null, newValue: 'tok' }, 'guid'), false, 'a sign-in');
  assert.equal(endsSession({ key: 'user', oldValue: '{}', newValue: null }, 'guid'), false);
  assert.equal(endsSession({ key: 'guid', oldValue: 'tok', newValue: 'tok' }, 'guid'), false);
  assert.equal(endsSession({ key: 'guid', oldValue: 'tok', newValue: null }, 'guid'), true);
});

Deno.test('a message other than the end is ignored, and a channel that throws is survived', () => {
  const hub = new Hub();
  const main = makeWindow(hub);
  const popup = makeWindow(hub);
  let heard = 0;
  popup.channel.subscribe(() => heard++);
  hub.open().postMessage({ type: 'something-else' });
  hub.open().postMessage(null);
  assert.equal(heard, 0);
  hub.open().postMessage({ type: SESSION_ENDED });
  assert.equal(heard, 1);
  const broken = createSessionChannel({
    tokenKey: 'guid',
    openChannel: () => {
      throw new DOMException('denied', 'SecurityError');
    },
    onStorage: () => () => {},
  });
  broken.announce();
  assert.doesNotThrow(() => broken.subscribe(() => {})());
  main.channel.announce();
  assert.equal(heard, 2);
});
