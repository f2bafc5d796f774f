/**
 * The headers of one of the API's answers, for a bare handler to replay (bench/support/redirect_handler.ts): every
 * header of the answer, without those of its connection, which the replaying server sets for its own.
 */
const HOP_HEADERS = ['connection', 'content-length', 'date', 'keep-alive', 'transfer-encoding'];

/** The API's answer to `url` (its body discarded), as headers to replay. */
export async function replayableHeaders(url: string, headers: Record<string, string> = {}) {
  const answer = await fetch(url, { headers });
  await answer.body?.cancel();
  return {
    status: answer.status,
    headers: Object.fromEntries([...answer.headers].filter(([name]) => !HOP_HEADERS.includes(name))),
  };
}
