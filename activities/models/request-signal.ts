// The signal handed to a vendor SDK for one request. The SDKs add an abort listener to the signal they are given and
// do not always remove it (a failed or retried request leaves one behind), so the activity's own signal, which lives
// through every call of a coder run, would gather one per request. Each request gets a signal of its own that
// follows the activity's and is dropped with the request.
export function requestSignal(signal: AbortSignal | undefined): AbortSignal | undefined {
  return signal ? AbortSignal.any([signal]) : undefined;
}
