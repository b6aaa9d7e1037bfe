#!/usr/bin/env python3
"""readme_tour.py README WORKDIR - run the README's tour as a reader types it.

In README order: a ```c block whose first line is "/* NAME - ... */" is
saved as WORKDIR/NAME (the README says where to save each); every line of a
```sh block is run with bash in WORKDIR (HOME=WORKDIR/home), and must
succeed; a ```text block right after an sh block lists lines its output must
contain (in any order: processors print concurrently; "..." stands for the
rest).  A command commented "# as root" runs only as root, one commented
"# as a user" only as another user; commands that need MPI (mpirun,
--device mpi) run when MPI_OK=1 in the environment, else are reported as
skipped.  Prints one line per command; exit status 1 at the first failure.
"""
import os
import re
import subprocess
import sys

readme, work = sys.argv[1], sys.argv[2]
env = dict(os.environ, HOME=os.path.join(work, "home"))
os.makedirs(env["HOME"], exist_ok=True)
mpi_ok = os.environ.get("MPI_OK") == "1"
is_root = os.geteuid() == 0

blocks = re.findall(r"^```(\w*)\n(.*?)^```\n", open(readme, encoding="utf-8").read(), re.S | re.M)
last_output = None
ran = saved = 0


def fail(msg):
    print("readme_tour: " + msg, file=sys.stderr)
    sys.exit(1)


for lang, body in blocks:
    if lang in ("c", "cpp"):
        m = re.match(r"/\* (\S+\.(?:c|cpp)) - ", body)
        if m:
            with open(os.path.join(work, m.group(1)), "w", encoding="utf-8") as f:
                f.write(body)
            saved += 1
        last_output = None
    elif lang == "sh":
        last_output = ""
        for line in body.splitlines():
            cmd = line.strip()
            if not cmd or cmd.startswith("#"):
                continue
            comment = cmd.split("#", 1)[1] if " #" in cmd else ""
            if ("as root" in comment and not is_root) or ("as a user" in comment and is_root):
                print("not for this user: " + cmd)
                continue
            if ("mpirun" in cmd or "--device mpi" in cmd) and not mpi_ok:
                print("skipped (no MPI here): " + cmd)
                continue
            p = subprocess.run(["bash", "-c", cmd], cwd=work, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, timeout=600)
            if p.returncode != 0:
                fail("'%s' failed with status %d:\n%s" % (cmd, p.returncode, p.stdout[-3000:]))
            print("ran: " + cmd)
            last_output += p.stdout
            ran += 1
    elif lang == "text" and last_output is not None:
        lines = set(last_output.splitlines())
        for want in body.splitlines():
            if want.strip() and want.strip() != "..." and want not in lines:
                fail("the output lacks the line '%s' the README shows; it was:\n%s" % (want, last_output[-3000:]))
        last_output = None
    else:
        last_output = None
if ran == 0 or saved == 0:
    fail("no command or no file found in %s" % readme)
print("readme_tour: %d files saved, %d commands ran" % (saved, ran))
