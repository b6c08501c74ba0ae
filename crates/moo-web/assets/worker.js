// The engine of the static site: moo-core compiled to WebAssembly, in a Web Worker so the page
// never freezes during a search. The page posts every request it would send to `moo serve`
// ({id, method, path, body}); the engine answers with the status and the JSON the server
// answers ({id, status, body}), so the pages run unchanged on either. One request runs at a
// time, in the order sent; to cancel one, the page ends this worker and starts another.
// The tests of tests/web.rs also post {id, fresh: body, ms}: a fresh advisor's advice on a
// solver request's position, timed as `moo bench advisor` times it; and {id, limits: [advice
// ms, review ms]}: a new engine with those time limits, to compare answers with the native
// build's where neither is cut short by its clock.
import init, { Engine } from "./pkg/moo_wasm.js";

const loaded = init({ module_or_path: new URL("./pkg/moo_wasm_bg.wasm", import.meta.url) });
let engine = loaded.then(() => new Engine());

self.onmessage = async (event) => {
  const { id, method, path, body, fresh, ms, limits } = event.data;
  let reply;
  if (limits !== undefined) {
    (await engine).free();
    engine = loaded.then(() => Engine.with_time_limits(limits[0], limits[1]));
    await engine;
    self.postMessage({ id, status: 200, body: "{}" });
    return;
  }
  try {
    const answer = fresh === undefined
      ? (await engine).call(method, path, body === undefined ? "" : body)
      : (await engine).fresh_advice(fresh, ms);
    reply = { id, status: answer.status, body: answer.body };
    answer.free();
  } catch (err) {
    // A trap (a panic or an exhausted stack) leaves the engine unusable: the page is told, and
    // starts a new worker.
    reply = { id, crashed: String(err && err.message || err) };
  }
  self.postMessage(reply);
};
