// Build step of the in-browser engine (src/havoc/web/offline.py runs it under Node): bytecode made by
// the very Python the phone runs (Pyodide's, whose version the build machine need not have), so
// the phone compiles no source on start.
//
// node engine_bytecode.mjs <pyodide dir> <staged bundle dir> <stdlib out> <packages>
//
// - every .py of the staged bundle's <packages> (comma-separated: havoc, the games, the stemmers) gets its
//   __pycache__/<name>.<tag>.pyc beside it, and the other modules of the bundle (PyYAML)
//   those the engine imports (the bundle is mounted at /havoc, where the worker unpacks
//   it, so the code objects name the paths the phone runs; offline.seal then puts each .pyc in its
//   source's place and leaves the source out);
// - <stdlib out> is Pyodide's python_stdlib.zip with each standard module the engine imports to
//   start and to answer as bytecode instead of source; the modules no import of the engine can
//   reach are left out (the rest stays source only: the download grows little).
// The .pyc files are unchecked-hash: Python loads them without comparing them with the source
// (an archive keeps no reliable dates); each is made from the very source shipped beside it (or,
// in the standard library, replaced).
// Prints one JSON line: {bundle: n, stdlib: n, dropped: n, tag}.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, stage, stdlibOut, whole] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
// PYTHONNODEBUGRANGES: the bytecode keeps each instruction's line but not its columns (only a
// traceback's ^^^ marks use them), a quarter less bytecode to download
const py = await loadPyodide({ indexURL: pyodideDir + "/", packages: [], env: { PYTHONNODEBUGRANGES: "1" } });
py.FS.mkdirTree("/havoc");
py.FS.mount(py.FS.filesystems.NODEFS, { root: stage }, "/havoc");
py.FS.writeFile("/tmp/stdlib-in.zip", readFileSync(join(pyodideDir, "python_stdlib.zip")));
const out = py.runPython(`
import importlib.util, json, os, sys, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc


import ast


def _undocumented(source, path):
    """The module's tree without its own and its functions' docstrings: most of what bytecode
    weighs beyond the code (the download), and never read by the engine. A class keeps its
    docstring: a dataclass without one builds it from inspect.signature, on every start."""
    tree = ast.parse(source, path)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
                node.body = body[1:] or [ast.copy_location(ast.Pass(), body[0])]
    return tree


def pyc(source, path):
    code = compile(_undocumented(source, path), path, "exec", dont_inherit=True)
    return bytes(_code_to_hash_pyc(code, importlib.util.source_hash(source), False))


if any(p[2] is not None for p in compile("a + b", "<check>", "eval").co_positions()):
    raise SystemExit("PYTHONNODEBUGRANGES was not honoured: the bytecode would keep its columns")


whole = set(${JSON.stringify(whole)}.split(","))
made = []
for folder, dirs, files in os.walk("/havoc"):
    dirs[:] = sorted(d for d in dirs if d != "__pycache__")
    for name in sorted(files):
        if name.endswith(".py"):
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                data = pyc(f.read(), path)
            target = importlib.util.cache_from_source(path)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as f:
                f.write(data)
            made.append((path, target))

# what the engine imports: to start (as the worker does: it unpacks the bundle, whose names
# zipfile decodes as cp437) and to answer every stored example in every language, JSON and YAML
import io

buf = io.BytesIO()
with zipfile.ZipFile(buf, "w") as z:
    z.writestr("x", b"")
zipfile.ZipFile(buf).namelist()
sys.path.insert(0, "/havoc")
from havoc.assistant import api, webapi
from havoc.assistant.examples import is_extra
from havoc.language.i18n import LANGUAGES
from havoc.formats.spec import plain

webapi.setup("/havoc")
webapi.handle("GET", "/api/labels", "", {"lang": "en"})
webapi.preload()
rs = api.load_ruleset()
for rule in rs.rules.values():
    for ex in rule.examples:
        question = plain(ex.query)
        path = "/api/ask"
        if is_extra(rs, ex):
            path = "/api/" + question.pop("ask")
        for lang in LANGUAGES:
            body = {"position": plain(ex.position), "question": question, "lang": lang}
            webapi.handle("POST", path, json.dumps(body), {})
            webapi.handle("GET", "/api/labels", "", {"lang": lang})
webapi.handle("POST", "/api/ask", '{"position": "players: [x]", "question": "legal"}', {})
loaded = {getattr(m.__spec__, "origin", None) for m in list(sys.modules.values()) if getattr(m, "__spec__", None)}
bundle = 0
for path, target in made:
    if path.split("/")[2].removesuffix(".py") in whole or path in loaded:
        bundle += 1
    else:
        os.remove(target)  # a module the engine never imported: source only, a smaller download
for folder, dirs, files in os.walk("/havoc"):
    if folder.endswith("/__pycache__") and not os.listdir(folder):
        os.rmdir(folder)
root = "/lib/python%d%d.zip/" % sys.version_info[:2]
used = {
    m.__spec__.origin[len(root):]
    for m in list(sys.modules.values())
    if getattr(m, "__spec__", None) and (m.__spec__.origin or "").startswith(root)
}
# What the engine could ever import from the standard library: every module imported above;
# every module an import statement anywhere in the bundle's sources or in those modules names
# (inside a function too: any of their functions may be called); and, for a module reached only
# that way, what its import statements outside functions name (importing it runs those; its
# functions' own imports run only if the engine calls them, and no run above did), followed to
# the end. A module's command line (its "if __name__ == '__main__'" block, a main() or _test()
# function) is never run by the engine. A standard module outside it is left out of the
# download altogether; Pyodide's own packages stay whole, and the codecs a text can be read or
# written in here (looked up by name at run time, so no import names them).
MAIN = {"__name__ == '__main__'", "'__main__' == __name__"}
SCRIPT = {"main", "_main", "_test", "test"}
FUNCTION = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def imported(source, name, package, deep=True, scripts=SCRIPT):
    """The modules an import statement of the module NAME names (with deep, inside its
    functions too, but for the functions named in scripts), and their parents."""
    out = set()
    nodes = [ast.parse(source)]
    while nodes:
        node = nodes.pop()
        test = getattr(node, "test", None)
        if isinstance(node, ast.If) and isinstance(test, ast.Compare) and ast.unparse(test) in MAIN:
            nodes.extend(node.orelse)  # a module's own self-test, run as a script: never by the engine
            continue
        if isinstance(node, FUNCTION) and (not deep or getattr(node, "name", "") in scripts):
            continue
        nodes.extend(ast.iter_child_nodes(node))
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = name if package else name.rpartition(".")[0]
            for _ in range(max(node.level - 1, 0)):
                base = base.rpartition(".")[0]
            mod = (base + "." if node.level and base else "") + (node.module or "") if node.level else node.module or ""
            mod = mod.strip(".")
            out.add(mod)
            out.update(mod + "." + a.name for a in node.names)  # "from json import decoder": a module too
    return {".".join(m.split(".")[:i]) for m in out if m for i in range(1, m.count(".") + 2)}

# What an import statement names but the engine never runs, whatever it is asked: left out
# unless a run above imported it. Why, for each: WebAssembly has no processes, threads of
# another interpreter or Windows; the engine fetches nothing (pathlib's file: URLs and asyncio's
# Windows loops lead there); and the rest is a module's own command line or debugging aid.
NEVER = {
    "multiprocessing": "no processes in WebAssembly",
    "concurrent.futures.process": "no processes in WebAssembly",
    "concurrent.futures.interpreter": "no subinterpreters in Pyodide",
    "concurrent.interpreters": "no subinterpreters in Pyodide",
    "asyncio.windows_events": "Windows only",
    "asyncio.windows_utils": "Windows only",
    "asyncio.proactor_events": "Windows only",
    "encodings._win_cp_codecs": "Windows only",
    "urllib.request": "the engine fetches nothing",
    "http": "the engine fetches nothing",
    "email": "the engine fetches and mails nothing",
    "argparse": "a module's command line (random, zipfile, ast, dis, inspect, tokenize)",
    "statistics": "random's command-line self-test",
    "py_compile": "zipfile's command line and PyZipFile",
    "tracemalloc": "a debugging aid, never started",
    "tarfile": "Pyodide unpacks the engine as a zip; it loads no package",
}


# Sources Pyodide's Python never reads, whoever imports them: the modules frozen into it (its
# start-up's own: os, codecs, importlib's bootstrap, ...), and the pure-Python twins of C modules
# it has built in, imported only when importing the C one fails (checked here: it is built in).
import _imp

FROZEN = {"_frozen_importlib": "importlib._bootstrap", "_frozen_importlib_external": "importlib._bootstrap_external"}
BUILT_IN = {m: FROZEN.get(m, m) for m in _imp._frozen_module_names() if _imp.is_frozen(m)}
TWINS = {"_pydatetime": "_datetime", "_py_abc": "_abc", "_threading_local": "_thread", "_pydecimal": "_decimal"}
NOT_READ = {*BUILT_IN.values(), *(py for py, c in TWINS.items() if c in sys.builtin_module_names)}


def never(f):
    """Whether the standard module in file F is one of NEVER (or inside one of them), or a
    source Python never reads (NOT_READ)."""
    name = f[:-3].removesuffix("/__init__").replace("/", ".")
    return (name in NOT_READ or any(name == n or name.startswith(n + ".") for n in NEVER)) and f not in used


with zipfile.ZipFile("/tmp/stdlib-in.zip") as zin:
    listed = set(zin.namelist())

    def file_of(mod):
        stem = mod.replace(".", "/")
        return next((f for f in (stem + ".py", stem + "/__init__.py") if f in listed), None)

    todo = set(used)
    for folder, dirs, files in os.walk("/havoc"):
        for fname in files:
            if fname.endswith(".py"):
                with open(os.path.join(folder, fname), "rb") as fh:
                    try:
                        todo |= {f for f in map(file_of, imported(fh.read(), "", False, scripts=())) if f and not never(f)}
                    except SyntaxError:
                        pass
    reach = set()
    while todo:
        f = todo.pop()
        if f in reach:
            continue
        reach.add(f)
        name = f[:-3].removesuffix("/__init__").replace("/", ".")
        try:
            found = imported(zin.read(f), name, f.endswith("/__init__.py"), f in used)
        except SyntaxError:
            continue
        todo |= {g for g in map(file_of, found) if g and not never(g)} - reach
keep = ("pyodide/", "_pyodide/") + tuple(
    "encodings/" + c + ".py"
    for c in "__init__ aliases utf_8 utf_8_sig utf_16 utf_16_le utf_16_be utf_32 utf_32_le utf_32_be ascii latin_1 cp437 cp1252 charmap idna punycode raw_unicode_escape unicode_escape".split()
)
stdlib = 0
dropped = 0
with zipfile.ZipFile("/tmp/stdlib-in.zip") as zin, zipfile.ZipFile(
    "/tmp/stdlib-out.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9
) as zout:
    for info in zin.infolist():
        if info.filename.endswith(".py") and info.filename not in reach and not info.filename.startswith(keep):
            dropped += 1  # no import of the engine's can reach it: not downloaded at all
            continue
        data = zin.read(info)
        if info.filename not in used:
            zout.writestr(info, data)
            continue
        # the bytecode instead of the source: the download grows by the difference only (a
        # traceback through these modules shows no source lines; the engine's own keep theirs)
        extra = zipfile.ZipInfo(info.filename + "c", info.date_time)
        extra.compress_type = zipfile.ZIP_DEFLATED
        zout.writestr(extra, pyc(data, root + info.filename))
        stdlib += 1
json.dumps({"bundle": bundle, "stdlib": stdlib, "dropped": dropped, "tag": sys.implementation.cache_tag})
`);
writeFileSync(stdlibOut, py.FS.readFile("/tmp/stdlib-out.zip"));
console.log(out);
