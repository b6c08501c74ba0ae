// The one way the pages reach the engine: every request goes through `api`, answered by either
// of two back-ends with the same JSON, chosen at start-up by <meta name="moo-backend">:
// - "server": `moo serve`, over HTTP;
// - "wasm": the static site's engine, moo-core compiled to WebAssembly, in a Web Worker
//   (worker.js), so the page never freezes during a search.
// An error is an Error with the answer's message, its HTTP status and its machine-readable code
// (`err.code`, such as "no_such_game" or "invalid"): pages act on the code, never the words.
// `cancelAll` stops every request in flight: the server's jobs stop when their connection goes;
// the worker, busy with one search, is ended and a new one started (its games are gone, and the
// play page replays its game from the link, as after a server restart).

export const BACKEND = document.querySelector('meta[name="moo-backend"]')?.content === "wasm" ? "wasm" : "server";

const pending = new Set();
const listeners = new Set();
// Tells whoever listens (the busy bar) how many requests are in flight.
const changed = () => listeners.forEach((f) => f(pending.size));
export const onBusy = (f) => listeners.add(f);

function failure(message, status, code) {
  const err = new Error(message);
  err.status = status;
  err.code = code;
  return err;
}
const cancelled = () => failure("Cancelled: nothing was changed.", 0, "cancelled");
// An error answer of either back-end: its JSON's message and code, or the status alone.
const refusal = (status, data, statusText = `error ${status}`) =>
  failure((data && data.error) || statusText, status, (data && data.code) || "internal");

// ---- moo serve -------------------------------------------------------------------------------

async function overHttp(method, path, body, request) {
  const controller = new AbortController();
  request.cancel = () => controller.abort();
  const init = { method, headers: {}, signal: controller.signal };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (err) {
    if (controller.signal.aborted) throw cancelled();
    throw failure(`The server did not answer (${err.message}): is moo serve still running?`, 0, "unreachable");
  }
  let data = null;
  try { data = await res.json(); } catch (_) { /* not JSON */ }
  if (!res.ok) throw refusal(res.status, data, `${res.status} ${res.statusText}`);
  return data;
}

// ---- the engine in a Web Worker ------------------------------------------------------------

let worker = null;
let nextId = 1;
const waiting = new Map();

function startWorker() {
  worker = new Worker(new URL("../worker.js", import.meta.url), { type: "module" });
  worker.onmessage = (event) => {
    const { id, status, body, crashed } = event.data;
    const request = waiting.get(id);
    if (!request) return;
    waiting.delete(id);
    if (crashed !== undefined) {
      const error = failure(`The engine in this page failed (${crashed}) and was restarted: please try again.`, 500, "internal");
      restartWorker(error);
      request.reject(error);
      return;
    }
    let data = null;
    try { data = JSON.parse(body); } catch (_) { /* not JSON */ }
    if (status >= 400) request.reject(refusal(status, data));
    else request.resolve(data);
  };
  // The module or the WebAssembly could not load: every request fails with the reason.
  worker.onerror = (event) => {
    event.preventDefault();
    restartWorker(failure(`The engine could not start in this browser (${event.message || "no reason given"}).`, 500, "internal"));
  };
}

// Ends the worker, failing what waits on it with `error`, and starts another.
function restartWorker(error) {
  worker.terminate();
  const rejected = [...waiting.values()];
  waiting.clear();
  rejected.forEach((r) => r.reject(error));
  startWorker();
}

function inWorker(method, path, body) {
  if (!worker) startWorker();
  return new Promise((resolve, reject) => {
    const id = nextId++;
    waiting.set(id, { resolve, reject });
    worker.postMessage({ id, method, path, body: body === undefined ? "" : JSON.stringify(body) });
  });
}

// ---- the one entry ---------------------------------------------------------------------------

export async function api(method, path, body) {
  const request = { cancel: () => {} };
  pending.add(request);
  changed();
  try {
    return BACKEND === "wasm" ? await inWorker(method, path, body) : await overHttp(method, path, body, request);
  } finally {
    pending.delete(request);
    changed();
  }
}

// Stops every request in flight; each rejects with the code "cancelled".
export function cancelAll() {
  if (BACKEND === "wasm") {
    if (waiting.size) restartWorker(cancelled());
  } else {
    for (const request of pending) request.cancel();
  }
}
