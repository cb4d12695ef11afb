#!/usr/bin/env python3
# Writes docs/architecture.md from docs/architecture.md.in and the layers of CMakeLists.txt.
"""docs/architecture.md, generated so that it cannot leave a folder out.

The layers are PTXMC_LAYERS of the top CMakeLists.txt (the order the layering test enforces).
For every folder of it the page gets its layer, its library (the add_library whose file(GLOB)
names the folder), its role (an `@folder FOLDER: ROLE` line of the template: the one place
roles are written) and its files, each with the first sentence of its header comment (the
project's style gives every file one). The hand-written parts (the walks of a litmus test and
of a PTX module through the stages) are the template's text; every code path and every
`namespace::name` they cite in backquotes must exist in the tree.

An error (exit 2): a layer folder without an `@folder` line, an `@folder` line for a folder
that is in no layer, a folder that does not exist, a file without a header comment, a cited
path or name that the tree does not have.

  python3 scripts/architecture.py           # writes docs/architecture.md
  python3 scripts/architecture.py --check   # exit 1 when docs/architecture.md differs
"""

import difflib
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEMPLATE = "docs/architecture.md.in"
OUTPUT = "docs/architecture.md"
CODE_ROOTS = ("src", "encoder", "app", "validate")
# Folders whose files are cited without their folder in backquotes: not checked as paths.
PATH_ROOTS = ("src", "encoder", "app", "validate", "model", "litmus", "tests", "docs",
              "scripts", "bench", "fuzz", "cmake")
NAMESPACES = ("litmus", "ptx", "lower", "ir", "cat", "engine", "kernel", "cli", "report", "smt",
              "enumerate", "schedules", "gen", "matrix", "hw", "explain")


class Error(Exception):
    pass


def read(rel):
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        return f.read()


def strip_cmake_comments(text):
    return "\n".join(re.sub(r"#.*", "", line) for line in text.splitlines())


def cmake_layers(cmake):
    """PTXMC_LAYERS: a list of layers, each a list of folders ('a|b' is one layer of two)."""
    m = re.search(r"set\(PTXMC_LAYERS\b(.*?)\)", strip_cmake_comments(cmake), re.S)
    if not m:
        raise Error("CMakeLists.txt: no set(PTXMC_LAYERS ...)")
    layers = [item.split("|") for item in re.findall(r'"([^"]*)"', m.group(1))]
    if not layers:
        raise Error("CMakeLists.txt: PTXMC_LAYERS is empty")
    return layers


def cmake_libraries(cmake):
    """Folder -> the library built from its sources (file(GLOB VAR ... F/*.cpp) + add_library)."""
    text = strip_cmake_comments(cmake)
    folders_of = {}
    for var, body in re.findall(r"file\(GLOB\s+(\w+)\s+CONFIGURE_DEPENDS(.*?)\)", text, re.S):
        folders_of[var] = re.findall(r"([\w/]+)/\*\.cpp", body)
    library = {}
    for name, sources in re.findall(r"add_library\((\w+)\s+STATIC\s+([^)]*)\)", text):
        for var in re.findall(r"\$\{(\w+)\}", sources):
            for folder in folders_of.get(var, []):
                library[folder] = name
    return library


def header_comment(rel):
    """The first sentence of a file's leading comment (// or #), or None."""
    lines = []
    with open(os.path.join(ROOT, rel), encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = re.match(r"^\s*(//+|#(?![a-z!]))\s?(.*)$", line)
            if not m or not m.group(2).strip():
                break
            lines.append(m.group(2).strip())
    if not lines:
        return None
    text = " ".join(lines)
    cut = re.search(r"\. (?=[A-Z`])", text) if len(lines) > 1 else None
    if cut:
        text = text[: cut.start() + 1]
    return text


def file_order(name):
    base, ext = os.path.splitext(name)
    rank = {".hpp": 0, ".cuh": 1, ".def": 2, ".cpp": 3, ".cu": 4}.get(ext, 5)
    return (base.lower(), rank, name)


def folder_files(folder):
    """[(names of one stem, description)] in name order: Foo.hpp and Foo.cpp share a row."""
    path = os.path.join(ROOT, folder)
    if not os.path.isdir(path):
        raise Error(f"PTXMC_LAYERS names {folder}, which is not a folder")
    names = sorted((n for n in os.listdir(path)
                    if not n.startswith(".") and os.path.isfile(os.path.join(path, n))),
                   key=file_order)
    rows, missing = [], []
    for name in names:
        comment = header_comment(f"{folder}/{name}")
        if comment is None:
            missing.append(f"{folder}/{name}")
        stem = os.path.splitext(name)[0]
        if rows and rows[-1][0] == stem and name != "CMakeLists.txt":
            rows[-1][1].append(name)
            if rows[-1][2] is None:
                rows[-1][2] = comment
        else:
            rows.append([stem, [name], comment])
    if missing:
        raise Error("files without a header comment (the project's style asks for one line "
                    "saying what the file is):\n  " + "\n  ".join(missing))
    return [(names, text) for _, names, text in rows]


def parse_template(text, folders):
    roles, body = {}, []
    for number, line in enumerate(text.splitlines(keepends=True), 1):
        m = re.match(r"^@folder\s+(\S+):\s*(.+?)\s*$", line)
        if m:
            if m.group(1) in roles:
                raise Error(f"{TEMPLATE}:{number}: a second @folder line for {m.group(1)}")
            roles[m.group(1)] = m.group(2)
        elif line.startswith("@folder "):
            raise Error(f"{TEMPLATE}:{number}: write '@folder FOLDER: role'")
        else:
            body.append(line)
    missing = [f for f in folders if f not in roles]
    stale = [f for f in roles if f not in folders]
    problems = [f"{f} is in PTXMC_LAYERS but has no '@folder {f}: role' line in {TEMPLATE}"
                for f in missing]
    problems += [f"{TEMPLATE} describes {f}, which is in no layer of PTXMC_LAYERS" for f in stale]
    if problems:
        raise Error("\n".join(problems))
    return roles, "".join(body).lstrip("\n")


def code_words():
    words = set()
    for top in CODE_ROOTS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, top)):
            dirnames[:] = sorted(d for d in dirnames if d not in ("generated", "results"))
            for name in filenames:
                if name.endswith((".hpp", ".cpp", ".def", ".cuh", ".cu")):
                    with open(os.path.join(dirpath, name), encoding="utf-8",
                              errors="replace") as f:
                        words.update(re.findall(r"[A-Za-z_]\w*", f.read()))
    return words


def check_citations(body):
    """Every backquoted tree path exists; every backquoted ns::name names something in code."""
    problems, words = [], None
    for token in sorted(set(re.findall(r"`([^`\n]+)`", body))):
        if "*" in token or " " in token:
            continue
        path = token.rstrip("/")
        if path.split("/")[0] in PATH_ROOTS and "/" in path:
            if not any(os.path.exists(os.path.join(ROOT, path + ext))
                       for ext in ("", ".hpp", ".cpp")):
                problems.append(f"{TEMPLATE} cites `{token}`, which the tree does not have")
        m = re.fullmatch(r"(\w+)::(?:\w+::)*(\w+)", token)
        if m and m.group(1) in NAMESPACES:
            words = code_words() if words is None else words
            if m.group(2) not in words:
                problems.append(f"{TEMPLATE} cites `{token}`: no {m.group(2)} in the code")
    if problems:
        raise Error("\n".join(problems))


def anchor(folder):
    """The anchor GitHub gives the heading ### `src/ir/`: srcir."""
    return folder.replace("/", "")


def drawing(layers):
    """One line per top folder, highest first: its folders in layer order, '<' between layers."""
    tops = []
    for layer in layers:
        for folder in layer:
            top = folder.split("/")[0]
            if top not in tops:
                tops.append(top)
    lines = []
    for top in reversed(tops):
        parts = []
        for layer in layers:
            mine = [f.split("/", 1)[1] + "/" for f in layer if f.split("/")[0] == top]
            if mine:
                parts.append(" | ".join(mine))
        lines.append(f"{top + '/':<11} " + " < ".join(parts))
    return "```\n" + "\n".join(lines) + "\n```\n"


def overview(layers, roles, library):
    out = ["| layer | folder | library | role |", "|---|---|---|---|"]
    for number, layer in enumerate(layers, 1):
        for folder in layer:
            lib = f"`{library[folder]}`" if folder in library else "none (built on its own)"
            out.append(f"| {number} | [`{folder}/`](#{anchor(folder)}) | {lib} | "
                       f"{roles[folder]} |")
    return "\n".join(out) + "\n"


def folders_section(layers, roles, library):
    out = []
    for number, layer in enumerate(layers, 1):
        for folder in layer:
            siblings = [f"`{f}/`" for f in layer if f != folder]
            where = f"Layer {number} of {len(layers)}"
            if siblings:
                where += ", beside " + " and ".join(siblings) + " (neither sees the other)"
            lib = f"library `{library[folder]}`" if folder in library else \
                "not part of the ptxmc build"
            out.append(f"### `{folder}/`\n\n"
                       f"{where}; {lib}. {roles[folder][0].upper()}{roles[folder][1:]}.\n\n"
                       "| file | what it is (its header comment) |\n|---|---|\n")
            depth = "../" + folder + "/"
            for names, text in folder_files(folder):
                cell = ", ".join(f"[`{n}`]({depth}{n})" for n in names)
                out.append(f"| {cell} | {text.replace('|', chr(92) + '|')} |\n")
            out.append("\n")
    return "".join(out).rstrip("\n") + "\n"


def generate():
    cmake = read("CMakeLists.txt")
    layers = cmake_layers(cmake)
    folders = [f for layer in layers for f in layer]
    twice = sorted({f for f in folders if folders.count(f) > 1})
    if twice:
        raise Error("PTXMC_LAYERS names a folder in more than one layer: " + ", ".join(twice))
    roles, body = parse_template(read(TEMPLATE), folders)
    check_citations(body)
    library = cmake_libraries(cmake)
    head = (f"<!-- Generated by scripts/architecture.py from {TEMPLATE} and PTXMC_LAYERS in "
            "CMakeLists.txt: edit those, then run `python3 scripts/architecture.py`. -->\n\n")
    for key, value in (("@drawing@", drawing(layers)),
                       ("@overview@", overview(layers, roles, library)),
                       ("@folders@", folders_section(layers, roles, library))):
        if body.count(key + "\n") != 1:
            raise Error(f"{TEMPLATE}: {key} must stand alone on one line, once")
        body = body.replace(key + "\n", value)
    return head + body, folders


def main(argv):
    check = argv[1:] == ["--check"]
    if argv[1:] and not check:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        text, folders = generate()
    except (Error, OSError) as e:
        print(f"scripts/architecture.py: error: {e}", file=sys.stderr)
        return 2
    path = os.path.join(ROOT, OUTPUT)
    if not check:
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        print(f"wrote {OUTPUT}: {len(folders)} folders")
        return 0
    try:
        committed = read(OUTPUT)
    except OSError:
        committed = ""
    absent = [f for f in folders if f"\n### `{f}/`\n" not in committed]
    for f in absent:
        print(f"{OUTPUT} leaves out {f} (a folder of PTXMC_LAYERS)", file=sys.stderr)
    if committed != text:
        diff = difflib.unified_diff(committed.splitlines(), text.splitlines(),
                                    OUTPUT, OUTPUT + " (generated)", lineterm="", n=1)
        print("\n".join(list(diff)[:60]), file=sys.stderr)
        print(f"{OUTPUT} is out of date: run `python3 scripts/architecture.py`", file=sys.stderr)
        return 1
    print(f"ok: {OUTPUT} is up to date ({len(folders)} folders of PTXMC_LAYERS)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
