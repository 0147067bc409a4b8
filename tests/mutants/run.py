#!/usr/bin/env python3
# run.py — the mutants check (./build.sh mutants [--no-baseline] [NAME...]). Each mutant in
# tests/mutants/mutants.txt is one exact change to one file (its original text, found
# exactly once, and its replacement). In a scratch copy of the source tree
# (build-mutants/src, one build directory build-mutants/src/build reused, so only what a
# mutant touches rebuilds) the suite is first built and run unchanged (it must pass);
# then each mutant is applied alone, the targets it names are built and the tests its
# regex names are run. A mutant is caught when a test fails. A mutant whose original
# text is not in its file is STALE, one that does not compile is BROKEN: both fail the
# run, as does a missed mutant. A mutant that a static check must stop names the
# check's message (expect: build error: TEXT) and is caught when the build stops with it.
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LIST = os.path.join(ROOT, "tests", "mutants", "mutants.txt")
SCRATCH = os.path.join(ROOT, "build-mutants")
SRC = os.path.join(SCRATCH, "src")
# The build directory sits in the copy as build/ does in the tree, so the compiler cache
# (base_dir) finds the tree's own objects for every file no mutant has touched.
BUILD = os.path.join(SRC, "build")
JOBS = str(os.cpu_count() or 2)
KEYS = ("mutant", "what", "file", "from", "to", "build", "tests")
OPTIONAL = ("expect",)  # "build error: TEXT": caught when the build fails saying TEXT


def fail(msg):
    print("mutants: " + msg, file=sys.stderr)
    sys.exit(2)


def read_mutants():
    """Blocks of `key: value` lines separated by blank lines; `#` starts a comment line."""
    mutants, block = [], {}
    with open(LIST, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for number, line in enumerate(lines + [""], 1):
        if line.startswith("#"):
            continue
        if not line.strip():
            if block:
                missing = [k for k in KEYS if k not in block]
                if missing:
                    fail("%s: mutant '%s' lacks %s" % (LIST, block.get("mutant", "?"), ", ".join(missing)))
                mutants.append(block)
                block = {}
            continue
        key, sep, value = line.partition(":")
        if not sep or key not in KEYS + OPTIONAL:
            fail("%s:%d: expected one of %s, got '%s'" % (LIST, number, ", ".join(KEYS + OPTIONAL), line))
        if key in block:
            fail("%s:%d: %s given twice" % (LIST, number, key))
        # The texts are matched inside a line, so their indentation is left out.
        block[key] = value.strip()
    names = [m["mutant"] for m in mutants]
    for n in names:
        if names.count(n) > 1:
            fail("%s: mutant '%s' named twice" % (LIST, n))
    return mutants


def mirror_tree():
    """Copies the tree's tracked and untracked (not ignored) files into SRC; a file whose
    bytes are unchanged keeps its time, so the build directory rebuilds only what changed."""
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, check=True,
                           capture_output=True).stdout.decode().split("\0")
    wanted = set()
    for rel in filter(None, files):
        src = os.path.join(ROOT, rel)
        if not os.path.isfile(src):
            continue  # deleted in the work tree
        wanted.add(rel)
        dst = os.path.join(SRC, rel)
        with open(src, "rb") as f:
            data = f.read()
        if os.path.isfile(dst):
            with open(dst, "rb") as f:
                if f.read() == data:
                    continue
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(src, dst)
        os.utime(dst)  # newer than any object built from the old copy
    for dirpath, dirs, names in os.walk(SRC):
        if dirpath == SRC:
            dirs[:] = [d for d in dirs if d != "build"]
        for name in names:
            rel = os.path.relpath(os.path.join(dirpath, name), SRC)
            if rel not in wanted:
                os.remove(os.path.join(dirpath, name))


def run(cmd, log):
    with open(log, "w") as out:
        return subprocess.run(cmd, cwd=BUILD, stdout=out, stderr=subprocess.STDOUT).returncode


def build(targets, log):
    """Targets by name, or DIR:FILE.o for one object file of the build's DIR."""
    objects = [t for t in targets if ":" in t]
    named = [t for t in targets if ":" not in t]
    if named and run(["cmake", "--build", BUILD, "-j", JOBS, "--target"] + named, log) != 0:
        return 1
    for t in objects:
        folder, _, obj = t.partition(":")
        if run(["make", "-C", os.path.join(BUILD, folder), obj], log) != 0:
            return 1
    return 0


def ctest(regex, log):
    return run(["ctest", "-R", regex, "-j", JOBS, "--no-tests=error", "--timeout", "300"], log)


def failed_tests(log):
    with open(log) as f:
        return re.findall(r"^\s*\d+ - (\S+) \(", f.read(), re.M)


def main():
    args = sys.argv[1:]
    # --no-baseline: the unchanged tree was just built and tested in this scratch copy.
    baseline = "--no-baseline" not in args
    only = [a for a in args if a != "--no-baseline"]
    mutants = read_mutants()
    if only:
        by_name = {m["mutant"]: m for m in mutants}
        unknown = [n for n in only if n not in by_name]
        if unknown:
            fail("no mutant named %s in %s" % (", ".join(unknown), LIST))
        mutants = [by_name[n] for n in only]  # in the order asked
    os.makedirs(BUILD, exist_ok=True)
    mirror_tree()

    # Every original text must be found exactly once before anything is built.
    stale = []
    for m in mutants:
        path = os.path.join(SRC, m["file"])
        text = open(path, encoding="utf-8").read() if os.path.isfile(path) else ""
        n = text.count(m["from"])
        if n != 1:
            stale.append(m["mutant"])
            print("STALE   %-40s %s: the original text is found %d times, not once" % (m["mutant"], m["file"], n))
    if stale:
        fail("%d stale mutants: change their `from` text to the code as it is now (%s)" % (len(stale), LIST))

    if subprocess.run(["cmake", "-S", SRC, "-B", BUILD, "-DCMAKE_BUILD_TYPE=Release", "-DCOLONY_BENCH=OFF"],
                      stdout=subprocess.DEVNULL).returncode != 0:
        fail("cmake could not configure " + BUILD)
    targets = sorted({t for m in mutants for t in m["build"].split()})
    # One run per distinct regex: ctest's expressions hold few groups.
    regexes = sorted({m["tests"] for m in mutants})
    print("mutants: building %s in %s" % (" ".join(targets), BUILD), flush=True)
    if not baseline:
        regexes = []
    elif build(targets, os.path.join(SCRATCH, "baseline-build.log")) != 0:
        fail("the unchanged tree does not build: see build-mutants/baseline-build.log")
    for i, regex in enumerate(regexes):
        log = os.path.join(SCRATCH, "baseline-test-%d.log" % i)
        if ctest(regex, log) != 0:
            fail("the unchanged tree fails the tests of '%s': see %s" % (regex, os.path.relpath(log, ROOT)))

    results = []
    for m in mutants:
        path = os.path.join(SRC, m["file"])
        original = open(path, encoding="utf-8").read()
        times = os.stat(path)
        verdict = "BROKEN"
        log = os.path.join(SCRATCH, m["mutant"] + ".log")
        start = time.time()
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write(original.replace(m["from"], m["to"], 1))
            expected_error = m.get("expect", "").partition("build error:")[2].strip()
            built = build(m["build"].split(), log) == 0
            if expected_error:
                said = not built and expected_error in open(log, errors="replace").read()
                verdict = "caught" if said else "MISSED"
                detail = "the build stops: " + expected_error if said else "the build does not stop saying '%s'" % expected_error
            elif not built:
                verdict, detail = "BROKEN", "does not compile: see " + os.path.relpath(log, ROOT)
            elif ctest(m["tests"], log) != 0:
                names = failed_tests(log)
                verdict, detail = "caught", "%d failed: %s" % (len(names), " ".join(names[:3]) + (" ..." if len(names) > 3 else ""))
            else:
                verdict, detail = "MISSED", "every test of '%s' passed" % m["tests"]
        finally:
            with open(path, "w", encoding="utf-8") as f:
                f.write(original)
            # A mutant a static check stopped built nothing from its text: the file gets
            # its time back, and nothing rebuilds for it.
            if m.get("expect") and verdict == "caught":
                os.utime(path, ns=(times.st_atime_ns, times.st_mtime_ns))
        results.append(verdict)
        print("%-7s %-40s %4.0f s  %s" % (verdict, m["mutant"], time.time() - start, detail), flush=True)

    caught = results.count("caught")
    print("mutants: %d of %d caught" % (caught, len(results)))
    return 0 if caught == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
