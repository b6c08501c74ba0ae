// The engine of the static site: moo-core compiled to WebAssembly, in a Web Worker so the page
// never freezes during a search. The page posts every request it would send to `moo serve`
// ({id, method, path, body}); the engine answers with the status and the JSON the server
// answers ({id, status, body}), so the pages run unchanged on either. One request runs at a
// time, in the order sent; to cancel one, the page ends this worker and starts another.
// The speed benchmark (tests/web.rs) posts {id, fresh: body, ms} instead: a fresh advisor's
// advice on a solver request's position, timed as `moo bench advisor` times it.
import init, { Engine } from "./pkg/moo_wasm.js";

const engine = init({ module_or_path: new URL("./pkg/moo_wasm_bg.wasm", import.meta.url) })
  .then(() => new Engine());

self.onmessage = async (event) => {
  const { id, method, path, body, fresh, ms } = event.data;
  let reply;
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
