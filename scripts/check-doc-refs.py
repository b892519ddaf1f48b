#!/usr/bin/env python3
"""Checks that the repository's references to its own documents resolve.

1. Every section reference "design.md §3", "behaviour.md §16.1", "operations.md §2" or
   "scenario.md §1" in a text file of the repository (what git ignores aside) names a numbered
   heading of that file under docs/.
   A reference continues over the sections listed after it: "design.md §1, §3, §7",
   "behaviour.md §4–§14" and "behaviour.md §16.1 and §16.2" check §1, §3, §7, §4, §14, §16.1 and
   §16.2. Inside docs/NAME.md a bare "§7.3" is a reference to NAME.md itself; anywhere else (code
   comments, READMEs, BENCHMARKS.md) a bare "§7.3" is a reference to behaviour.md.
2. Every relative link "[text](path)" in a .md file of the repository names a file or folder that
   exists.

Usage: check-doc-refs.py [REPOSITORY_ROOT]   (default: the repository this script is in)
Exit status 0 when everything resolves, 1 with one line per broken reference otherwise.
"""

import os
import re
import subprocess
import sys

DOCUMENTS = ("design", "behaviour", "operations", "scenario")
# Blanks, and the comment markers a reference broken over two comment lines has between its parts.
GAP = r"(?:\s|//+|#+(?=\s)|\*(?=\s))*"
SECTION = r"§\s*(\d+(?:\.\d+)*)"
SEPARATOR = r"(?:" + GAP + r"(?:,|–|-|and|or)" + GAP + r")"
NAMED_REFERENCE = re.compile(
    r"\b(" + "|".join(DOCUMENTS) + r")\.md" + GAP + SECTION + r"((?:" + SEPARATOR + SECTION + r")*)"
)
BARE_REFERENCE = re.compile(r"(?<![\w.])" + SECTION)
CONTINUATION = re.compile(SECTION)
NUMBERED_HEADING = re.compile(r"^#{1,6}\s+(\d+(?:\.\d+)*)\.?\s")
FENCE = re.compile(r"^\s*(```|~~~)")
MARKDOWN_LINK = re.compile(r"(?<!!)\[[^\]\n]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
SKIPPED_DIRECTORIES = ("build", ".git", "koordq-data", ".cache")  # as .gitignore
# This check and its test cite sections that do not exist, on purpose.
NOT_CHECKED = ("scripts/check-doc-refs.py", "tests/static/doc_refs_test.sh")


def tracked_files(root):
    """The files git tracks or would add; every file under root outside a git checkout."""
    try:
        listed = subprocess.run(
            ["git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            check=True,
            capture_output=True,
        ).stdout
        return [path for path in listed.decode().split("\0") if path]
    except (OSError, subprocess.CalledProcessError):
        paths = []
        for directory, subdirectories, files in os.walk(root):
            subdirectories[:] = [
                name for name in subdirectories if not name.startswith(SKIPPED_DIRECTORIES)
            ]
            for name in files:
                paths.append(os.path.relpath(os.path.join(directory, name), root))
        return paths


def read_text(root, path):
    """The file's text, or None for a binary or unreadable file."""
    try:
        with open(os.path.join(root, path), "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def numbered_sections(text):
    """The section numbers of a document's headings ("3", "16.1"), outside code blocks."""
    sections = set()
    in_fence = False
    for line in text.splitlines():
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        match = None if in_fence else NUMBERED_HEADING.match(line)
        if match:
            sections.add(match.group(1))
    return sections


def section_references(path, text):
    """(line, document, section) for every section reference in one file."""
    own_document = "behaviour"
    directory, name = os.path.split(path)
    if directory == "docs" and name.endswith(".md") and name[:-3] in DOCUMENTS:
        own_document = name[:-3]
    def line_of(offset):
        return text.count("\n", 0, offset) + 1

    references = []
    named_spans = []
    for match in NAMED_REFERENCE.finditer(text):
        named_spans.append(match.span())
        line = line_of(match.start())
        references.append((line, match.group(1), match.group(2)))
        for more in CONTINUATION.finditer(match.group(3)):
            references.append((line, match.group(1), more.group(1)))
    for match in BARE_REFERENCE.finditer(text):
        if not any(start <= match.start() < end for start, end in named_spans):
            references.append((line_of(match.start()), own_document, match.group(1)))
    return references


def link_targets(text):
    """(line, target) for every relative link of a markdown file, outside code blocks."""
    targets = []
    in_fence = False
    for number, line in enumerate(text.splitlines(), start=1):
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        for match in MARKDOWN_LINK.finditer(line):
            target = match.group(1)
            if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target) or target.startswith("#"):
                continue
            targets.append((number, target.split("#", 1)[0]))
    return targets


def check(root):
    """One message per reference that does not resolve."""
    files = tracked_files(root)
    sections = {}
    for document in DOCUMENTS:
        text = read_text(root, os.path.join("docs", document + ".md"))
        sections[document] = numbered_sections(text) if text is not None else None
    problems = []
    for path in sorted(files):
        if path in NOT_CHECKED:
            continue
        text = read_text(root, path)
        if text is None or "§" not in text and not path.endswith(".md"):
            continue
        for line, document, section in section_references(path, text):
            known = sections[document]
            if known is None:
                problems.append(
                    f"{path}:{line}: {document}.md §{section}: there is no docs/{document}.md; "
                    "point the reference at a document in docs/"
                )
            elif section not in known:
                problems.append(
                    f"{path}:{line}: {document}.md §{section}: docs/{document}.md has no heading "
                    f"numbered {section}; cite one of its sections or add the section"
                )
        if not path.endswith(".md"):
            continue
        for line, target in link_targets(text):
            resolved = os.path.normpath(os.path.join(os.path.dirname(path), target))
            if not os.path.exists(os.path.join(root, resolved)):
                problems.append(
                    f"{path}:{line}: link to {target}: {resolved} does not exist in the repository; "
                    "fix the path or remove the link"
                )
    return problems


def main(arguments):
    if len(arguments) > 2 or any(argument.startswith("-") for argument in arguments[1:]):
        print("usage: check-doc-refs.py [REPOSITORY_ROOT]", file=sys.stderr)
        return 2
    root = arguments[1] if len(arguments) == 2 else os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))
    if not os.path.isdir(os.path.join(root, "docs")):
        print(f"check-doc-refs.py: {root} has no docs/ folder; pass the repository's root",
              file=sys.stderr)
        return 2
    problems = check(root)
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} reference(s) do not resolve", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
