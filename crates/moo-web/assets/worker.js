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

// The shipped optimal trees are not in the module, which the page loads before its first guess:
// an answer with the code "needs_trees" lists those a request needs, fetched here from the
// site's trees/ once and given to the engine before asking again.
async function withTrees(engine, ask) {
  let answer = ask();
  if (answer.status !== 503) return answer;
  let needed;
  try { needed = JSON.parse(answer.body); } catch (_) { return answer; }
  if (needed.code !== "needs_trees") return answer;
  for (const file of needed.trees) {
    const res = await fetch(new URL(`./trees/${file}`, import.meta.url));
    if (!res.ok) return answer;
    engine.provide_tree(file, await res.text());
  }
  answer.free();
  return ask();
}

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
    const e = await engine;
    const answer = await withTrees(e, () => fresh === undefined
      ? e.call(method, path, body === undefined ? "" : body)
      : e.fresh_advice(fresh, ms));
    reply = { id, status: answer.status, body: answer.body };
    answer.free();
  } catch (err) {
    // A trap (a panic or an exhausted stack) leaves the engine unusable: the page is told, and
    // starts a new worker.
    reply = { id, crashed: String(err && err.message || err) };
  }
  self.postMessage(reply);
};
