#!/usr/bin/env python3
"""readme_run.py WORKDIR README [DOC...] - run every command block of the
README, then of each DOC, as a reader types it, in order, in WORKDIR (a
fresh copy of the clone; what one file saves, the next finds).

Fenced blocks only (an indented code block in the README is an error: say
what it is with a fence; the docs' indented blocks are sketches, not run):
  ```c / ```cpp  whose first line is "/* NAME - ... */": saved where the text
                 says, as a reader saves it: WORKDIR/DIR/NAME, where the
                 text around it (to the fences before and after) names
                 `DIR/NAME` (the folder made); one it would have a reader
                 save in the clone's top folder, among Superstep's own
                 files, is an error; other C is not saved;
  ```sh          every line (a trailing backslash continues it) is run with
                 bash in WORKDIR (HOME=WORKDIR/home) and must succeed;
  ```text        right after an sh block (nothing but blank lines between):
                 lines its output must contain, in any order ("..." stands
                 for the rest); elsewhere, shown output, not checked.
A block right after the comment
  <!-- not run by tests/tools/readme.sh: REASON -->
is not run, and REASON is printed.  In an sh block, a command commented
"# as root" runs only as root, one commented "# as a user" only as another
user; commands that need MPI (mpirun, --device mpi) run when MPI_OK=1 in
the environment, else are reported as skipped; `make test` (the whole
suite, this test among it) is never run.  Prints one line per
command; exit status 1 at the first failure.
"""
import os
import re
import subprocess
import sys

work, files = sys.argv[1], sys.argv[2:]
env = dict(os.environ, HOME=os.path.join(work, "home"))
os.makedirs(env["HOME"], exist_ok=True)
mpi_ok = os.environ.get("MPI_OK") == "1"
is_root = os.geteuid() == 0
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.S | re.M)
NOT_RUN = re.compile(r"<!--\s*not run by tests/tools/readme\.sh:\s*(.*?)\s*-->\s*$", re.S)


def fail(msg):
    print("readme_run: " + msg, file=sys.stderr)
    sys.exit(1)


def where(name, text, pos):
    return "%s line %d" % (name, text.count("\n", 0, pos) + 1)


def indented_blocks(name, text):
    """Indented code blocks would hide commands from this test."""
    outside = FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    lines = outside.split("\n")
    for i, line in enumerate(lines):
        if re.match(r"^ {4,}\S", line) and i > 0 and not lines[i - 1].strip():
            fail("%s line %d is an indented code block: use a fenced one (```sh, ```c, ```text)" % (name, i + 1))


def commands(body):
    cmd = ""
    for line in body.splitlines():
        cmd += line.strip()
        if cmd.endswith("\\"):
            cmd = cmd[:-1] + " "
            continue
        if cmd and not cmd.startswith("#"):
            yield cmd
        cmd = ""


def run(name, text):
    """Save the files and run the commands of one file, in order; returns
    how many files were saved, commands ran and blocks were not run."""
    last_output, end = None, 0
    ran = saved = skipped = 0
    for m in FENCE.finditer(text):
        lang, body, before = m.group(1).strip(), m.group(2), text[end:m.start()]
        at = where(name, text, m.start())
        end = m.end()
        follows = last_output is not None and not before.strip()
        output, last_output = last_output, None
        why = NOT_RUN.search(before)
        if why and lang in ("sh", "c", "cpp"):
            print("not run (%s: %s): ```%s block" % (at, why.group(1), lang))
            skipped += 1
            continue
        if lang in ("c", "cpp"):
            prog = re.match(r"/\* (\S+\.(?:c|cpp)) - ", body)
            if prog:
                nxt = FENCE.search(text, m.end())
                around = before + text[m.end():nxt.start() if nxt else len(text)]
                named = re.findall(r"`((?:[\w.-]+/)*%s)`" % re.escape(prog.group(1)), around)
                if not named or "/" not in named[-1]:
                    fail("%s: %s is not saved in a folder of its own (say `try/%s`): a reader's files "
                         "do not belong among the clone's" % (at, prog.group(1), prog.group(1)))
                path = os.path.join(work, named[-1])
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w", encoding="utf-8") as f:
                    f.write(body)
                saved += 1
        elif lang == "sh":
            last_output = ""
            for cmd in commands(body):
                comment = cmd.split(" #", 1)[1] if " #" in cmd else ""
                if ("as root" in comment and not is_root) or ("as a user" in comment and is_root):
                    print("not for this user: " + cmd)
                    continue
                if re.match(r"make test\b", cmd):
                    print("not run (the whole suite, this test among it): " + cmd)
                    continue
                if ("mpirun" in cmd or "--device mpi" in cmd) and not mpi_ok:
                    print("skipped (no MPI here): " + cmd)
                    continue
                p = subprocess.run(["bash", "-c", cmd], cwd=work, env=env, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True, timeout=600)
                if p.returncode != 0:
                    fail("%s: '%s' failed with status %d:\n%s" % (at, cmd, p.returncode, p.stdout[-3000:]))
                print("ran: " + cmd)
                last_output += p.stdout
                ran += 1
        elif lang == "text" and follows:
            got = set(output.splitlines())
            for want in body.splitlines():
                if want.strip() and want.strip() != "..." and want not in got:
                    fail("%s: the output lacks the line '%s' the text shows; it was:\n%s" %
                         (at, want, output[-3000:]))
    return saved, ran, skipped


for i, name in enumerate(files):
    text = open(name, encoding="utf-8").read()
    if i == 0:
        indented_blocks(name, text)
    saved, ran, skipped = run(name, text)
    if i == 0 and (ran == 0 or saved == 0):
        fail("no command or no file found in %s" % name)
    if saved or ran or skipped:
        print("readme_run: %s: %d files saved, %d commands ran, %d blocks not run (reasons above)" %
              (name, saved, ran, skipped))
