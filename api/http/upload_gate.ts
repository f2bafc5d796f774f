/**
 * Uploads admitted before their body is read: at most `perSender` under way for one sender and `inFlight` for the
 * whole process (config UPLOADS_PER_SENDER, UPLOADS_IN_FLIGHT). A body is held while it is read and checked, so
 * without this 40 senders' uploads stalled before their last bytes held 40 bodies at once (the API went from 398 to
 * 840 MB). Per process on purpose, as the sign-in's in-flight limit: it bounds this process's memory.
 */
import type { UploadLimits } from '../config.ts';
import { InFlightLimiter } from '../domain/in_flight.ts';
import type { Reason } from '../domain/outcome.ts';

interface Gate {
  perSender: InFlightLimiter;
  total: number;
}

const gates = new WeakMap<UploadLimits, Gate>();

/** Takes a slot for `senderId`: a release function (call it once), or the refusal's reason. */
export function admitUpload(limits: UploadLimits, senderId: string): (() => void) | Reason {
  let gate = gates.get(limits);
  if (!gate) gates.set(limits, gate = { perSender: new InFlightLimiter(limits.perSender), total: 0 });
  // The sender's own excess first: they are told to wait for their own uploads, not that the server is busy.
  const release = gate.perSender.tryAcquire(senderId);
  if (!release) return 'upload_sender_busy';
  if (gate.total >= limits.inFlight) {
    release();
    return 'upload_server_busy';
  }
  gate.total++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    gate.total--;
    release();
  };
}
