"""The scripts the harness evaluates in a game page: reading its state with its size, and gameAPI calls polled
under the paused clock."""

# The state with its JSON size (UTF-8 bytes, -1 when it does not serialize), measured in the page so a huge
# state never crosses over; the state itself still travels as Playwright serializes it (NaN stays NaN).
READ_STATE = """(max) => {
  const state = window.gameAPI.getState();
  let size = -1;
  try {
    const text = JSON.stringify(state);
    size = text.length > max / 3 ? new TextEncoder().encode(text).length : text.length;
  } catch (e) {}
  return {size, state: size > max ? null : state};
}"""

# Starts gameAPI[method](arg) and keeps its outcome on the page: a call that awaits the page's timers or
# animation frames settles only while the harness lets game time pass, so the harness polls this box between
# slices of game time instead of awaiting the promise (which would wait forever on a paused clock).
# __gwOldDocument tells this document from a new one, should the page reload itself meanwhile.
CALL_START = """([method, arg]) => {
  window.__gwOldDocument = true;
  const box = window.__gwCall = {done: false, value: null, error: null};
  let promise;
  try { promise = Promise.resolve(window.gameAPI[method](arg)); } catch (e) { promise = Promise.reject(e); }
  promise.then((v) => { box.done = true; box.value = v === undefined ? null : v; },
               (e) => { box.done = true; box.error = String((e && e.message) || e); });
}"""
CALL_POLL = """() => {
  const box = window.__gwCall;
  if (!box) return null;
  let value = null;
  try { value = box.done ? JSON.parse(JSON.stringify(box.value)) : null; } catch (e) { value = null; }
  return {done: box.done, value: value, error: box.error};
}"""
STATUS = "() => { try { return String(window.gameAPI.getState().status); } catch (e) { return 'unreadable'; } }"


def navigated(exc: Exception) -> bool:
    """Whether a page call failed because the page navigated away (a reload) while it ran."""
    text = str(exc)
    return "Execution context was destroyed" in text or "navigation" in text.lower()
