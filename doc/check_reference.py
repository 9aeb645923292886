#!/usr/bin/env python3
"""Checks that doc/reference.md documents every public name of bsx, and that README.md
links every page of doc/ (CTest doc_reference).

    python3 doc/check_reference.py [repository root]

A public name is one declared at namespace scope in `namespace bsx` or a namespace nested
in it (bsx::ops), outside any `detail` namespace, in include/bsx/**/*.hpp, plus the
configuration macros of include/bsx/config.hpp and the version macros of
include/bsx/version.hpp. It is documented when it appears inside a code span (`...`) or a
heading of doc/reference.md. Standard library only.
"""
import pathlib
import re
import sys


def strip_comments_and_strings(text):
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    text = re.sub(r"'(?:\\.|[^'\\\n])'", "''", text)
    return text


def strip_preprocessor(text):
    return re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", "", text, flags=re.M)


def strip_balanced(text, open_char, close_char, prefix_pattern=""):
    """Removes prefix_pattern followed by a balanced open...close group."""
    out, i = [], 0
    pattern = re.compile(prefix_pattern + re.escape(open_char))
    while True:
        m = pattern.search(text, i)
        if not m:
            out.append(text[i:])
            return "".join(out)
        out.append(text[i:m.start()])
        depth, j = 0, m.end() - 1
        while j < len(text):
            depth += text[j] == open_char
            depth -= text[j] == close_char
            j += 1
            if depth == 0:
                break
        i = j


def declared_name(head):
    """The name a namespace-scope declaration (text up to its ';' or '{') declares."""
    head = re.sub(r"\bBSX_[A-Z_]+\s*\([^()]*\)", " ", head)  # macro invocations
    head = strip_balanced(head, "<", ">", r"\btemplate\s*")
    head = strip_balanced(head, "(", ")", r"\brequires\s*")
    head = head.strip()
    if not head:
        return None
    m = re.match(r"(?:\[\[\w+\]\]\s*)?(?:class|struct)\s+(\w+)", head)
    if m:
        return m.group(1)
    m = re.match(r"(?:using|concept)\s+(\w+)", head) or re.search(r"\b(?:using|concept)\s+(\w+)\s*=", head)
    if m:
        return m.group(1)
    m = re.search(r"\b(operator\s*[^\s(]+)\s*\(", head)
    if m:
        return m.group(1).replace(" ", "")
    no_angles = strip_balanced(head, "<", ">")
    m = re.match(r"[^(=]*?(\w+)\s*=(?!=)", no_angles, flags=re.S)  # a variable initialized by a call
    if m:
        return m.group(1)
    m = re.search(r"(\w+)\s*\(", no_angles)
    if m and m.group(1) not in ("decltype", "noexcept", "alignas", "requires"):
        return m.group(1)
    m = re.search(r"(\w+)\s*(?:=.*)?$", no_angles, flags=re.S)  # variables: `... name{}` / `name = ...`
    return m.group(1) if m else None


def public_names(include_dir):
    names = {}
    for header in sorted(include_dir.rglob("*.hpp")):
        text = strip_preprocessor(strip_comments_and_strings(header.read_text()))
        stack = []  # one entry per open brace: a namespace path, or None for any other block
        statement = ""
        i = 0
        while i < len(text):
            c = text[i]
            in_namespace_scope = not stack or stack[-1] is not None
            if c == "{":
                m = re.search(r"\bnamespace\s+([\w:]*)\s*$", statement)
                if m and in_namespace_scope:
                    parent = stack[-1] if stack else []
                    stack.append(parent + [p for p in m.group(1).split("::") if p])
                else:
                    ns = stack[-1] if stack else None
                    if ns and in_namespace_scope and ns[0] == "bsx" and "detail" not in ns:
                        name = declared_name(statement)
                        if name:
                            names.setdefault(name, header.relative_to(include_dir.parent))
                    stack.append(None)
                statement = ""
            elif c == "}":
                if stack:
                    stack.pop()
                statement = ""
            elif c == ";":
                ns = stack[-1] if stack else None
                if ns and ns[0] == "bsx" and "detail" not in ns:
                    name = declared_name(statement)
                    if name:
                        names.setdefault(name, header.relative_to(include_dir.parent))
                statement = ""
            elif in_namespace_scope:
                statement += c
            i += 1
    for header in ("config.hpp", "version.hpp"):
        text = (include_dir / "bsx" / header).read_text()
        for macro in re.findall(r"^[ \t]*#\s*define\s+(BSX_\w+)", text, flags=re.M):
            names.setdefault(macro, pathlib.Path("include/bsx") / header)
    return names


def documented_words(reference):
    spans = re.findall(r"`([^`\n]+)`", reference) + re.findall(r"^#+ (.*)$", reference, flags=re.M)
    words = set()
    for span in spans:
        words.update(re.findall(r"operator\s*[^\s(\w]+|\w+", span))
    return {w.replace(" ", "") for w in words}


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
    names = public_names(root / "include")
    words = documented_words((root / "doc" / "reference.md").read_text())
    missing = sorted(n for n in names if n not in words)
    for n in missing:
        print(f"doc/reference.md does not document {n} (declared in {names[n]})")
    print(f"{len(names)} public names, {len(names) - len(missing)} documented in doc/reference.md")
    readme = (root / "README.md").read_text()
    pages = sorted(p.name for p in (root / "doc").glob("*.md"))
    unlinked = [p for p in pages if f"](doc/{p})" not in readme]
    for p in unlinked:
        print(f"README.md has no link to doc/{p}")
    print(f"{len(pages)} pages in doc/, {len(pages) - len(unlinked)} linked from README.md")
    return 1 if missing or unlinked else 0


if __name__ == "__main__":
    sys.exit(main())
