/* havoc: the rules assistant in a Web Worker (copied to <site>/_engine/worker.js by the build).
 * Loads the WebAssembly Python shipped beside it (./pyodide/), unpacks the engine bundle named by
 * ./engine.json and answers the Ask page's API requests with havoc.assistant.webapi, the same JSON as
 * `havoc serve`. Nothing is fetched from outside this site. The worker's name ("havoc:<ruleset>",
 * from havocEngine.start) says the ruleset of the page shown: it is loaded before the worker
 * reports ready and its game compiled right after, not the default ruleset's. Messages in: {id, method, path,
 * body, query}; out: {kind: "progress", stage, and while the engine downloads done and total (bytes)},
 * {kind: "ready", ms, from, marks (ms since the worker began, at each step), unpack}, {kind: "snapshot", ...},
 * {kind: "failed", reason, detail}, {id, status, body}. tests/engine_parity.mjs runs the same steps under Node.
 * The bundle must have the SHA-256 engine.json lists (Web Crypto) and unpack: one that does not (a
 * download cut short, a stale copy in the HTTP cache) is fetched once more from the host itself
 * (cache: "reload", which the service worker passes to the network), never kept; if that one is
 * wrong too, the start fails with the reason "damaged" (the page says so in its language).
 *
 * The snapshot start (issue 40). Starting Python and reading the rules is most of a start, and the
 * same on every visit; so the first start on a device, once its rules are loaded and its game
 * compiled, copies Python's memory (Pyodide's memory snapshot) and the engine's files, and keeps
 * them in IndexedDB ("havoc-engine", one entry per ruleset) in the background (the worker answers
 * meanwhile), under the build's fingerprint: the bundle's SHA-256, the Pyodide version and
 * this worker's SHA-256 (engine.json lists it: a change of the steps below is another build). A
 * later start restores that memory instead of starting Python from nothing, writes the files
 * back (they are not in the memory) and re-runs webapi.setup; it does not fetch or unpack the
 * bundle. Any doubt is a normal start: no entry, another build's entry,
 * one whose SHA-256 or lengths do not match (damaged, cut short), one Pyodide refuses (its own magic
 * and build id), or a restored Python without the engine in it (the private option ignored, as
 * after a Pyodide upgrade); a bad entry is deleted, and the normal start stores a new one. "ready"
 * says from: "snapshot" or "start"; the "snapshot" messages say what became of it (the page keeps
 * the last: havocEngine.snapshot()).
 */
const here = new URL("./", import.meta.url);
const ruleset = (self.name || "").replace(/^havoc:/, ""); // "": the default ruleset (the Ask page's)
const DB = "havoc-engine", STORE = "snapshots", KEY = ruleset || "default";
let engine = null;
const marks = {}; // ms since the worker began, at each step of the start (the benchmark prints them)
function mark(name) { marks[name] = Math.round(performance.now()); }

function post(msg) { self.postMessage(msg); }

function damaged(what) { return Object.assign(new Error(what), {reason: "damaged"}); }

function hex(buf) {
  return Array.prototype.map.call(new Uint8Array(buf), function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
}

// The bundle's bytes, checked against engine.json's SHA-256 (where Web Crypto is: secure contexts).
async function bundle(manifest, mode) {
  const r = await fetch(new URL(manifest.bundle, here), {cache: mode});
  if (!r.ok) throw new Error("bundle " + r.status);
  const data = await r.arrayBuffer();
  if (manifest.sha256 && self.crypto && crypto.subtle) {
    if (hex(await crypto.subtle.digest("SHA-256", data)) !== manifest.sha256) throw damaged("the engine bundle is damaged");
  }
  return data;
}

function unpacked(py, data) {
  try { py.unpackArchive(data, "zip", {extractDir: "/havoc"}); return true; } catch (e) { return false; }
}

// The bundle's files, [[path, bytes]], inflated by the browser's own zlib (DecompressionStream)
// while Python is still loading: Pyodide's unpackArchive does it in Python once Python is up, and
// that was a third of a first start's time beyond a bare Python's (300-900 ms for 6 MB in 359
// files). Only for a bundle whose SHA-256 was checked (its bytes are the build's, so no file's
// CRC needs checking again); null where this cannot be done (no "deflate-raw" in this browser, a
// ZIP64 or an unusual entry): then unpackArchive unpacks it, as before.
async function inflated(data) {
  if (typeof DecompressionStream !== "function") return null;
  try { new DecompressionStream("deflate-raw"); } catch (e) { return null; }
  try {
    const bytes = new Uint8Array(data), view = new DataView(data), names = new TextDecoder();
    let end = -1; // the end of the central directory: the last "PK\5\6" (a comment may follow it)
    for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65535) && end < 0; i--) {
      if (view.getUint32(i, true) === 0x06054b50) end = i;
    }
    if (end < 0) return null;
    const count = view.getUint16(end + 10, true);
    let at = view.getUint32(end + 16, true);
    if (count === 0xffff || at === 0xffffffff) return null; // ZIP64
    const files = [];
    for (let n = 0; n < count; n++) {
      if (view.getUint32(at, true) !== 0x02014b50) return null;
      const method = view.getUint16(at + 10, true), packed = view.getUint32(at + 20, true), size = view.getUint32(at + 24, true);
      const nameLength = view.getUint16(at + 28, true), local = view.getUint32(at + 42, true);
      const name = names.decode(bytes.subarray(at + 46, at + 46 + nameLength));
      at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
      if (name.slice(-1) === "/") continue; // a folder: made with its files
      if (name[0] === "/" || name.split("/").some(function (part) { return part === "" || part === "." || part === ".."; })) return null;
      if (view.getUint32(local, true) !== 0x04034b50) return null;
      const from = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
      const raw = bytes.subarray(from, from + packed);
      if (method === 0 && packed === size) files.push(Promise.resolve(["/havoc/" + name, raw]));
      else if (method === 8) {
        const out = new Blob([raw]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
        files.push(new Response(out).arrayBuffer().then(function (b) {
          if (b.byteLength !== size) throw new Error("size");
          return ["/havoc/" + name, new Uint8Array(b)];
        }));
      } else return null;
    }
    return await Promise.all(files);
  } catch (e) {
    return null;
  }
}

// [[path, bytes]] written into Python's file system (the bundle inflated, or the files kept with a snapshot)
function write(py, files) {
  const made = {};
  files.forEach(function (f) {
    const dir = f[0].slice(0, f[0].lastIndexOf("/"));
    if (!made[dir]) { py.FS.mkdirTree(dir); made[dir] = true; }
    py.FS.writeFile(f[0], f[1]);
  });
}

// --- the snapshot's store: IndexedDB, one entry per ruleset ------------------------------------------
// {fingerprint, bytes: the memory's length, pages: Uint32Array (the memory's pages not all zero, about
// half), files: [[path, size]] (the engine's folder as it was), data: Blob (those pages, then those
// files), sha256: of data, and of the rest}. Kept raw: reading and hashing it takes less than gunzipping the memory.
const PAGE = 4096;

// The build's fingerprint: what the memory holds depends on the bundle, the Pyodide and this very
// code (the steps it took before copying the memory), whose SHA-256 the build lists in engine.json
function fingerprint(manifest) {
  return [manifest.sha256 || manifest.bundle, manifest.pyodide || "", manifest.worker || ""].join("|");
}

function snapshotsUsable() {
  return typeof indexedDB === "object" && indexedDB !== null && !!(self.crypto && crypto.subtle);
}

function database() {
  return new Promise(function (resolve, reject) {
    const open = indexedDB.open(DB, 1);
    open.onupgradeneeded = function () { open.result.createObjectStore(STORE); };
    open.onsuccess = function () { resolve(open.result); };
    open.onerror = function () { reject(open.error); };
    open.onblocked = function () { reject(new Error("blocked")); };
  });
}

function stored(mode, act) {
  return database().then(function (db) {
    return new Promise(function (resolve, reject) {
      const tx = db.transaction(STORE, mode);
      const req = act(tx.objectStore(STORE));
      tx.oncomplete = function () { db.close(); resolve(req.result); };
      tx.onerror = tx.onabort = function () { db.close(); reject(tx.error || new Error("aborted")); };
    });
  });
}

function drop() { return stored("readwrite", function (s) { return s.delete(KEY); }).catch(function () {}); }

function pause() { return new Promise(function (resolve) { setTimeout(resolve, 0); }); }

function zero(bytes, from, to) {
  for (let i = from; i < to; i++) if (bytes[i] !== 0) return false;
  return true;
}

// The files under root (the unpacked bundle and whatever the engine wrote there), read now
function filesUnder(FS, root) {
  const out = [];
  (function walk(dir) {
    FS.readdir(dir).sort().forEach(function (name) {
      if (name === "." || name === "..") return;
      const path = dir + "/" + name, mode = FS.stat(path).mode;
      if (FS.isDir(mode)) walk(path);
      else if (FS.isFile(mode)) out.push([path, FS.readFile(path)]);
    });
  })(root);
  return out;
}

// The SHA-256 of an entry's data, and of what says where its parts go (lengths, pages, file names)
async function digest(data, entry) {
  const where = new TextEncoder().encode(JSON.stringify([entry.bytes, Array.from(entry.pages), entry.files]));
  return hex(await crypto.subtle.digest("SHA-256", data)) + ":" + hex(await crypto.subtle.digest("SHA-256", where));
}

// The stored memory and files, whole, or why not (no entry, another build's, damaged: deleted)
async function restorable(entry, manifest) {
  if (!entry) return {why: "none"};
  if (entry.fingerprint !== fingerprint(manifest)) { await drop(); return {why: "stale"}; }
  try {
    const data = new Uint8Array(await entry.data.arrayBuffer());
    if (await digest(data, entry) !== entry.sha256) throw new Error("damaged");
    const memory = new Uint8Array(entry.bytes);
    let at = 0;
    entry.pages.forEach(function (page, i) {
      if (i && page <= entry.pages[i - 1]) throw new Error("damaged");
      const part = data.subarray(at, at + Math.min(PAGE, memory.length - page * PAGE));
      memory.set(part, page * PAGE);
      at += part.length;
    });
    const files = entry.files.map(function (f) { const part = data.subarray(at, at + f[1]); at += f[1]; return [f[0], part]; });
    if (at !== data.length) throw new Error("damaged");
    return {memory: memory, files: files, why: ""};
  } catch (e) {
    await drop();
    return {why: "damaged"};
  }
}

// Python's memory and the engine's files, now (before any question); stored in the background
async function keep(py, why) {
  const t0 = performance.now();
  let memory, files;
  try { memory = py.makeMemorySnapshot(); files = filesUnder(py.FS, "/havoc"); }
  catch (e) { post({kind: "snapshot", state: "unsupported", why: why, detail: String(e)}); return; }
  const copyMs = performance.now() - t0;
  try {
    const pages = [], parts = [];
    for (let page = 0; page * PAGE < memory.length; page++) {
      const from = page * PAGE, to = Math.min(from + PAGE, memory.length);
      if (!zero(memory, from, to)) { pages.push(page); parts.push(memory.subarray(from, to)); }
      if (page % 1024 === 1023) await pause(); // a question asked meanwhile is answered at once
    }
    files.forEach(function (f) { parts.push(f[1]); });
    const data = new Blob(parts);
    const entry = {fingerprint: fingerprint(engine.manifest), bytes: memory.length, pages: new Uint32Array(pages),
      files: files.map(function (f) { return [f[0], f[1].length]; }), data: data};
    entry.sha256 = await digest(new Uint8Array(await data.arrayBuffer()), entry);
    await stored("readwrite", function (s) { return s.put(entry, KEY); });
    post({kind: "snapshot", state: "stored", why: why, bytes: memory.length, stored: data.size, files: files.length,
      copyMs: copyMs, ms: performance.now() - t0});
  } catch (e) {
    post({kind: "snapshot", state: "not-stored", why: why, detail: String(e)}); // no room, private mode: the next start is normal
  }
}

// --- the start ------------------------------------------------------------------------------------
async function python(loadPyodide, extra) {
  return loadPyodide(Object.assign({indexURL: new URL("pyodide/", here).href, packages: []}, extra));
}

// The engine's files in py (the bundle unpacked, or after a restore the files kept with the memory),
// havoc pointed at them, the page's rules loaded: the engine, ready
// (unpack: how the files came: "kept" with the memory, "browser": inflated by DecompressionStream,
// "python": by unpackArchive)
async function engineIn(py, manifest, first, restored) {
  let unpack = "kept";
  if (restored) write(py, restored);
  else {
    const got = await first().catch(function () { return null; });
    mark("bundle");
    let data = got && got.data;
    unpack = got && got.files ? "browser" : "python";
    if (got && got.files) write(py, got.files);
    else if (!data || !unpacked(py, data)) {
      data = await bundle(manifest, "reload");
      if (!unpacked(py, data)) throw damaged("the engine bundle does not unpack");
    }
  }
  mark("unpacked");
  if (restored) {
    py.runPython("from havoc.assistant import webapi; webapi.setup('/havoc')"); // the files, the folder, the key's modes
  } else {
    py.runPython("import sys; sys.path.insert(0, '/havoc'); from havoc.assistant import webapi; webapi.setup('/havoc')");
    post({kind: "progress", stage: "rules"});
  }
  const webapi = py.pyimport("havoc.assistant.webapi");
  mark("imported");
  // loads the rules from the bundle's cache (after a restore: loaded already; a check that the engine answers)
  const query = py.toPy(ruleset ? {lang: "en", ruleset: ruleset} : {lang: "en"});
  const labels = JSON.parse(webapi.handle("GET", "/api/labels", "", query));
  query.destroy();
  if (labels.status !== 200) throw new Error("labels " + labels.status);
  mark("labels");
  return {py: py, handle: webapi.handle, preload: webapi.preload, manifest: manifest, unpack: unpack};
}

// The page's progress line on a first visit: how much of the engine's download has arrived
// (engine.json's "download": its large files, by path, and their sizes), counted as each body
// streams in, Pyodide's own fetches included; told at each whole percent.
function counting(manifest) {
  const sizes = manifest.download || {};
  const total = Object.keys(sizes).reduce(function (sum, name) { return sum + sizes[name]; }, 0);
  if (!total || typeof TransformStream !== "function" || typeof ReadableStream !== "function") return;
  const real = self.fetch.bind(self);
  let done = 0, told = -1;
  self.fetch = function (input, init) {
    return real(input, init).then(function (res) {
      const name = (res.url || new URL(String(input.url || input), here).href).split(/[?#]/)[0].slice(here.href.length);
      if (!res.ok || !res.body || !Object.prototype.hasOwnProperty.call(sizes, name)) return res;
      const counted = res.body.pipeThrough(new TransformStream({
        transform: function (chunk, out) {
          done += chunk.byteLength;
          const percent = Math.min(99, Math.floor(done * 100 / total));
          if (percent !== told) { told = percent; post({kind: "progress", stage: "runtime", done: done, total: total}); }
          out.enqueue(chunk);
        }
      }));
      return new Response(counted, {status: res.status, statusText: res.statusText, headers: res.headers});
    });
  };
}

async function start() {
  const t0 = performance.now();
  if (typeof WebAssembly !== "object") throw Object.assign(new Error("no WebAssembly"), {reason: "no-wasm"});
  post({kind: "progress", stage: "runtime"});
  const runtime = import(new URL("pyodide/pyodide.mjs", here).href); // meanwhile: the manifest, the bundle
  runtime.catch(function () {}); // a failure is reported where it is awaited
  const usable = snapshotsUsable();
  const entry = usable ? stored("readonly", function (s) { return s.get(KEY); }).catch(function () { return null; }) : null;
  const manifest = await (await fetch(new URL("engine.json", here))).json();
  mark("manifest");
  counting(manifest);
  // the bundle, fetched once and only when needed (a restore needs none), and inflated as soon as
  // it is in: {data, files (null: for unpackArchive)}
  let fetched = null;
  function first() {
    if (!fetched) {
      fetched = bundle(manifest, "default").then(function (data) {
        const checked = !!(manifest.sha256 && self.crypto && crypto.subtle);
        return (checked ? inflated(data) : Promise.resolve(null)).then(function (files) { return {data: data, files: files}; });
      });
    }
    return fetched;
  }
  const kept = usable ? await entry : null;
  if (!kept) first().catch(function () {}); // fetched while Python loads; awaited below
  const checked = kept ? restorable(kept, manifest) : null; // read and checked while Pyodide's scripts load
  const {loadPyodide} = await runtime;
  mark("runtime");
  let why = !usable ? "unsupported" : kept ? "" : "none";
  if (checked) {
    try {
      // Pyodide awaits the memory only once its own script is in: the two load side by side
      const memory = checked.then(function (old) {
        mark("snapshot");
        if (!old.memory) throw Object.assign(new Error("no snapshot: " + old.why), {why: old.why});
        return old.memory;
      });
      const waited = {then: function (ok, no) { mark("awaited"); return memory.then(ok, no); }};
      const py = await python(loadPyodide, {_loadSnapshot: waited});
      mark("python");
      // the option honoured: the engine is imported already (an ignored option gives a bare Python)
      if (!py.runPython("import sys; 'havoc.assistant.webapi' in sys.modules")) throw new Error("the snapshot was not restored");
      post({kind: "progress", stage: "engine"});
      engine = Object.assign(await engineIn(py, manifest, first, (await checked).files), {from: "snapshot"});
      return performance.now() - t0;
    } catch (e) {
      if (e.why) why = e.why; // another build's, or damaged: deleted already
      else {
        why = "refused";
        await drop();
        post({kind: "snapshot", state: "refused", detail: String(e)});
      }
    }
  }
  first().catch(function () {}); // awaited below
  // no packages: the bundle has all the engine needs (its standard modules come with bytecode)
  const py = await python(loadPyodide, usable ? {_makeSnapshot: true} : {});
  mark("python");
  post({kind: "progress", stage: "engine"});
  engine = Object.assign(await engineIn(py, manifest, first, false), {from: "start", why: why, make: usable});
  return performance.now() - t0;
}

const ready = start().then(
  function (ms) {
    post({kind: "ready", ms: ms, from: engine.from, marks: marks, unpack: engine.unpack});
    if (engine.from === "snapshot") { post({kind: "snapshot", state: "restored"}); return; }
    engine.preload(ruleset); // before any question: the page's game's modules, compiled while the reader types
    if (engine.make) {
      // every language's words read too (the first question of a Polish page loads the Polish
      // catalog otherwise): in the memory kept, a restored engine has them all
      const langs = engine.py.runPython("from havoc.language.i18n import LANGUAGES; list(LANGUAGES)");
      langs.toJs().forEach(function (lang) {
        const q = engine.py.toPy(ruleset ? {lang: lang, ruleset: ruleset} : {lang: lang});
        engine.handle("GET", "/api/labels", "", q);
        q.destroy();
      });
      langs.destroy();
      post({kind: "snapshot", state: "making", why: engine.why});
      keep(engine.py, engine.why); // its memory copied now, before any question; stored in the background
    } else post({kind: "snapshot", state: engine.why});
  },
  function (err) {
    post({kind: "failed", reason: err.reason || (/memory|quota|storage/i.test(String(err)) ? "storage" : "start"), detail: String(err)});
    throw err;
  }
);

self.onmessage = function (ev) {
  const m = ev.data || {};
  ready.then(function () {
    const q = engine.py.toPy(m.query || {});
    try {
      const out = JSON.parse(engine.handle(m.method || "GET", m.path, m.body || "", q));
      post({id: m.id, status: out.status, body: out.body});
    } finally { q.destroy(); }
  }).catch(function (err) {
    post({id: m.id, status: 0, body: null, error: String(err)});
  });
};
