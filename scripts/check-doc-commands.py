#!/usr/bin/env python3
"""Checks that every shell command README.md and docs/operations.md show is run by a test.

The commands are
1. every command line of a fenced ```sh, ```bash, ```shell or ```console block (a line ending in
   a backslash goes on with the next; a "$ " prompt is dropped; a comment line is no command);
2. every inline code span of the prose (tables too) that starts with a command word (COMMAND_WORDS)
   and gives it an argument beyond its subcommand: `kubectl get deploy -A | grep koord-queue` is a
   command, `kubectl apply` and `koordq journal export` only name one, and a usage synopsis with
   optional parts (`scripts/fuzz.sh TARGET [SECONDS]`) is none. A span broken over two lines is
   joined.

A command is covered when, after the normalisation below, it appears verbatim in a line of a test
script under tests/ (a *.sh file) that is not a comment, a line ending in a backslash joined with
the next as in the documents. The normalisation, applied to both sides:
- a trailing shell comment ("  # look first") is dropped, runs of blanks become one blank, and a
  single quote reads as a double one (so a test may quote a placeholder's value for the shell);
- in the test scripts, "$koordq" (the binary under test) reads as `koordq`;
- in the documents, a placeholder reads as the text the tests put in its place (PLACEHOLDERS):
  the registry is a real one on loopback, `kubectl exec …` names the Pod koordq-0.

The tests that run kubectl commands define `kubectl` as a shell function for the kubectl and
kubeconfig of their control plane (tests/controlplane). That control plane runs no kubelet, which
`kubectl exec` and `kubectl logs` reach: tests/e2e/pod_start_test.sh, which runs the Pod's container
under podman, runs those two with podman in the container.

A command that no test can run is listed in EXEMPTIONS with the reason; so is a span that only
names a command. A listed command that the documents no longer show is reported too, so the list
stays true.

Usage: check-doc-commands.py [REPOSITORY_ROOT] [--list]
  --list   print every command with its document and line, and what covers it, then check.
Exit status 0 when every command is covered, 1 with one line per command that is not
("README.md:32: `…` is run by no test under tests/ …"), 2 on bad usage.
"""

import os
import re
import sys

DOCUMENTS = ("README.md", "docs/operations.md")
SHELL_FENCES = ("sh", "bash", "shell", "console")
# The words an inline code span must start with to be a command.
COMMAND_WORDS = (
    "kubectl",
    "koordq",
    "build/cmd/koordq",
    "./scripts/",
    "scripts/",
    "bash",
    "curl",
    "podman",
    "skopeo",
    "docker-registry",
    "promtool",
    "cmake",
    "ninja",
    "ctest",
    "KOORDQ_E2E_KEEP=1",
    "helm",
)
# The subcommand words after the command word: a span with no more than these names a command.
SUBCOMMAND_DEPTH = {"koordq": 2, "build/cmd/koordq": 2, "kubectl": 1, "helm": 1, "podman": 1}

# Document text -> the text a test runs instead, for what a user fills in.
PLACEHOLDERS = (
    ("kubectl exec … --", "kubectl -n koord-queue exec koordq-0 --"),
    ("NS/NAME", "$unit"),
    ("--kubeconfig FILE", '--kubeconfig "$KUBECONFIG"'),
    ("--journal-dir DIR", '--journal-dir "$j"'),
    ("<version>", "$version"),
    ("2026-04-20T03:12:00Z", "$instant"),
    ("--from 2026-04-01T00:00:00Z --to 2026-05-01T00:00:00Z", '--from "$from" --to "$to"'),
    ("revision=48213", "revision=$revision"),
    ("team-a/train-42", "$unit"),
    ("/data/<uuid>", "/data/00000000-0000-4000-8000-000000000000"),
    ("<ns>", "koord-queue"),
    ("<name>", "koord-queue"),
    ("<time>", "$quarantined_at"),
    ("registry.example.com", "$registry"),
    ("s3://BUCKET/PREFIX", '"$archive"'),
    ("--archive-journal UUID", '--archive-journal "$uuid"'),
    ("--journal UUID", '--journal "$uuid"'),
)

# The commands no test runs and the spans that only name a command, each with the reason.
EXEMPTIONS = "tests/static/doc_commands_exempt.txt"


def exemptions(root):
    """{command: "not run: reason" | "a mention: reason"} from EXEMPTIONS: a line "[not run] REASON"
    or "[mention] REASON", then the commands it applies to, indented, one a line."""
    listed = {}
    reason = None
    path = os.path.join(root, EXEMPTIONS)
    if not os.path.exists(path):
        return listed
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip() or line.startswith("#"):
                continue
            heading = re.match(r"^\[(not run|mention)\]\s+(\S.*)$", line.rstrip())
            if heading:
                reason = ("not run: " if heading.group(1) == "not run" else "a mention: ") + heading.group(2)
            elif line.startswith(" ") and reason:
                listed[normalise(line)] = (reason, number)
            else:
                raise SystemExit(f"{EXEMPTIONS}:{number}: want \"[not run] REASON\", \"[mention] REASON\" or an indented command")
    return listed


def strip_comment(line):
    """The line without a trailing shell comment ('#' after a blank, outside quotes)."""
    quote = None
    for index, char in enumerate(line):
        if quote:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or line[index - 1] in " \t"):
            return line[:index]
    return line


def normalise(command):
    return " ".join(strip_comment(command).split()).replace("'", '"')


def joined_lines(lines):
    """(first line number, text) of each logical line: a backslash at the end joins the next."""
    logical = []
    pending, start = None, 0
    for number, line in enumerate(lines, 1):
        if pending is None:
            start = number
            pending = line
        else:
            pending = pending + " " + line.strip()
        if pending.rstrip().endswith("\\"):
            pending = pending.rstrip()[:-1]
            continue
        logical.append((start, pending))
        pending = None
    if pending is not None:
        logical.append((start, pending))
    return logical


def is_command_span(span):
    words = span.split()
    if not words or "[" in span.replace("[-1]", "").replace("[?(", ""):
        return False
    first = words[0]
    if not any(first == word or (word.endswith("/") and first.startswith(word)) for word in COMMAND_WORDS):
        return False
    return len(words) > 1 + SUBCOMMAND_DEPTH.get(first, 0)


INLINE_SPAN = re.compile(r"`([^`]+)`")


def document_commands(root, document):
    """(line, command) of every command the document shows."""
    with open(os.path.join(root, document), encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    commands = []
    fence = None
    prose = []  # (line number, text) outside fences, for spans broken over two lines
    block = []
    for number, line in enumerate(lines, 1):
        marker = re.match(r"^\s*```(\w*)", line)
        if marker and fence is None:
            fence = marker.group(1)
            block = []
            continue
        if marker and fence is not None:
            if fence in SHELL_FENCES:
                for start, text in joined_lines([text for _, text in block]):
                    command = normalise(re.sub(r"^\s*\$ ", "", text))
                    if command:
                        commands.append((block[start - 1][0], command))
            fence = None
            continue
        if fence is not None:
            block.append((number, line))
        else:
            prose.append((number, line))
    # Inline spans: the prose joined into paragraphs so that a span may cross a line break.
    paragraph, first = [], None
    for number, line in prose + [(len(lines) + 1, "")]:
        if line.strip():
            if not paragraph:
                first = number
            paragraph.append((number, line))
            continue
        text = ""
        offsets = []
        for line_number, part in paragraph:
            offsets.append((len(text), line_number))
            text += part + "\n"
        for match in INLINE_SPAN.finditer(text):
            span = " ".join(match.group(1).split())
            line_number = max(n for offset, n in offsets if offset <= match.start()) if offsets else first
            if is_command_span(span):
                commands.append((line_number, normalise(span)))
        paragraph = []
    return commands


def substituted(command):
    for placeholder, value in PLACEHOLDERS:
        command = command.replace(placeholder, value)
    return command


def test_lines(root):
    """(path, normalised line) of every non-comment line of the test scripts under tests/."""
    found = []
    for directory, subdirectories, files in os.walk(os.path.join(root, "tests")):
        subdirectories.sort()
        for name in sorted(files):
            if not name.endswith(".sh"):
                continue
            path = os.path.join(directory, name)
            with open(path, encoding="utf-8") as handle:
                for _, text in joined_lines(handle.read().splitlines()):
                    if text.lstrip().startswith("#"):
                        continue
                    text = text.replace('"$koordq"', "koordq")
                    found.append((os.path.relpath(path, root), normalise(text)))
    return found


def main(argv):
    args = [arg for arg in argv[1:] if arg != "--list"]
    listing = "--list" in argv[1:]
    if len(args) > 1:
        print(__doc__[__doc__.index("Usage:") :].rstrip(), file=sys.stderr)
        return 2
    root = args[0] if args else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    lines = test_lines(root)
    exempt = exemptions(root)
    problems = []
    shown = set()
    for document in DOCUMENTS:
        for number, command in document_commands(root, document):
            shown.add(command)
            if command in exempt:
                verdict = exempt[command][0]
            else:
                wanted = substituted(command)
                covering = next((path for path, text in lines if wanted in text), None)
                if covering:
                    verdict = "run by " + covering
                else:
                    verdict = None
                    problems.append(
                        f"{document}:{number}: `{command}` is run by no test under tests/"
                        + (f" (looked for `{wanted}`)" if wanted != command else "")
                        + ": run it verbatim in a test script, or list it in"
                        f" {EXEMPTIONS} with the reason no test can"
                    )
            if listing:
                print(f"{document}:{number}: {command}\n    {verdict or 'NOT COVERED'}")
    for listed, (_, number) in exempt.items():
        if listed not in shown:
            problems.append(
                f"{EXEMPTIONS}:{number}: `{listed}` is listed, but neither document shows it:"
                " remove it from the list"
            )
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
