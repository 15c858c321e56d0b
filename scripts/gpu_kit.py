#!/usr/bin/env python3
"""The GPU kit's plan and assembly (scripts/gpu-kit.sh runs both).

  gpu_kit.py plan BUILD        which tests travel and which targets to build
  gpu_kit.py assemble BUILD KIT   copy programs, libraries, sources; write
                                  the manifest run.sh reads

The tests come from CTest itself (`ctest --show-only=json-v1`): every test
labelled one of KIT_LABELS (default "cuda") plus the tests named in
KIT_TESTS (a smoke check of the CPU path), less those matching KIT_EXCLUDE
(default DEFAULT_EXCLUDE: the ones no GPU changes). Their programs are mapped to
CMake targets through the CMake file API (codemodel-v2), so only those
targets are built. Paths in the test commands are rewritten for the kit:
  a program of the build tree   -> "$K"/bin/NAME   (K: the kit's folder)
  elsewhere in the build tree   -> "$W"/_build/... (W: run.sh's scratch)
  in the source tree            -> "$W"/...        (W links the kit's src/)
  beside it (../shared/...)     -> "$W"/_outside/...
  /usr/bin/python3, bash, ...   -> the name alone, found on PATH there
"""
import json
import re
import os
import shlex
import shutil
import subprocess
import sys

DEFAULT_LABELS = "cuda"
DEFAULT_TESTS = "test_jit test_ufunc_call kernels_basic"
# Labelled cuda but never touching a GPU (PTX compiles, the simulator, the
# fake driver: CI runs them): left out, each program being ~1.8 MiB of the
# tarball, whose size the GPU machine bounds.
DEFAULT_EXCLUDE = r"^(test_nvvm_|test_cudasim_|test_cuda_fake_driver)"
# Loaded from the machine the kit runs on, never carried: glibc's own.
SYSTEM_LIBS = ("linux-vdso", "ld-linux", "libc.so", "libm.so", "libdl.so",
               "libpthread.so", "librt.so", "libmvec.so", "libresolv.so",
               "libutil.so")
# Copied with a source folder but of no use to a run.
SKIP_SOURCES = shutil.ignore_patterns("*.c", "*.h", "*.cpp", "*.o",
                                      "CMakeLists.txt", "__pycache__",
                                      "*.pyc", "fuzz")


def die(msg):
    sys.exit("gpu-kit: " + msg)


def source_dir(build):
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        for line in f:
            if line.startswith("CMAKE_HOME_DIRECTORY:"):
                return os.path.realpath(line.split("=", 1)[1].strip())
    die("no CMAKE_HOME_DIRECTORY in %s/CMakeCache.txt" % build)


def codemodel_targets(build):
    """{absolute artifact path: (target name, type, source dir)}"""
    reply = os.path.join(build, ".cmake", "api", "v1", "reply")
    if not os.path.isdir(reply):
        die("no CMake file API reply in %s (query before configuring)" % build)
    index = sorted(f for f in os.listdir(reply) if f.startswith("index-"))[-1]
    with open(os.path.join(reply, index)) as f:
        cm = json.load(f)["reply"]["codemodel-v2"]["jsonFile"]
    with open(os.path.join(reply, cm)) as f:
        config = json.load(f)["configurations"][0]
    out = {}
    for t in config["targets"]:
        with open(os.path.join(reply, t["jsonFile"])) as f:
            tj = json.load(f)
        for a in tj.get("artifacts", []):
            path = os.path.realpath(os.path.join(build, a["path"]))
            out[path] = (tj["name"], tj["type"], tj["paths"]["source"])
    return out


def ctest_tests(build):
    js = subprocess.run(["ctest", "--show-only=json-v1"], cwd=build,
                        check=True, capture_output=True, text=True).stdout
    tests = []
    for t in json.loads(js)["tests"]:
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        # CTest leaves the command out while its program is not built yet
        tests.append({"name": t["name"], "command": t.get("command"),
                      "props": props})
    return tests


def select(tests, labels, names, exclude):
    return [t for t in tests
            if (labels & set(t["props"].get("LABELS", []))
                and not (exclude and exclude.search(t["name"])))
            or t["name"] in names]


def programs_for(tests, artifacts, built=False):
    """{artifact path: target} of the programs the kit carries: the CLI,
    every built program a test names, and the CUDA benchmarks' programs
    (bench/cuda/ or bench_cuda*)"""
    programs = {}
    exe = {path: name for path, (name, ttype, _) in artifacts.items()
           if ttype == "EXECUTABLE"}
    for path, name in exe.items():
        srcdir = artifacts[path][2].replace(os.sep, "/")
        if (name == "ufjit_cli" or name.startswith("bench_cuda")
                or srcdir.startswith("bench/cuda")):
            programs[path] = name
    by_name = {name: path for path, name in exe.items()}
    for t in tests:
        if t["command"] is None:
            if built:
                die("test %s: CTest gives no command though all is built"
                    % t["name"])
            # not built yet, so CTest does not say: add_test(NAME x
            # COMMAND x) is the usual form, and x_gpu, x_env_pool, ...
            # run x again (tests/cmake/*.cmake): the longest prefix at an
            # underscore that names a program; else every program is built
            parts = t["name"].split("_")
            base = next(("_".join(parts[:k]) for k in
                         range(len(parts), 0, -1)
                         if "_".join(parts[:k]) in by_name), None)
            if base is not None:
                programs[by_name[base]] = base
            else:
                print("gpu-kit: warning: test %s names no target of its "
                      "name: building every program" % t["name"],
                      file=sys.stderr)
                programs.update(exe)
            continue
        for arg in t["command"]:
            a = os.path.realpath(arg) if os.path.isabs(arg) else None
            if a in exe:
                programs[a] = exe[a]
    return programs


def check_names(programs):
    by_base = {}
    for path in programs:
        base = os.path.basename(path)
        if base in by_base:
            die("two programs named %s: %s and %s" % (base, by_base[base], path))
        by_base[base] = path


def plan(build):
    build = os.path.realpath(build)
    labels = set(os.environ.get("KIT_LABELS", DEFAULT_LABELS).split())
    names = os.environ.get("KIT_TESTS", DEFAULT_TESTS).split()
    artifacts = codemodel_targets(build)
    tests = ctest_tests(build)
    ex = os.environ.get("KIT_EXCLUDE", DEFAULT_EXCLUDE)
    chosen = select(tests, labels, names, re.compile(ex) if ex else None)
    found = {t["name"] for t in chosen}
    for n in names:
        if n not in found:
            print("gpu-kit: warning: no test named %s" % n, file=sys.stderr)
    n_label = sum(1 for t in chosen if labels & set(t["props"].get("LABELS", [])))
    print("gpu-kit: %d test(s) labelled %s, %d named"
          % (n_label, "/".join(sorted(labels)), len(chosen) - n_label),
          file=sys.stderr)

    programs = programs_for(chosen, artifacts)
    result = {"build": build, "source": source_dir(build),
              "tests": [t["name"] for t in chosen]}
    with open(os.path.join(build, "kit-plan.json"), "w") as f:
        json.dump(result, f, indent=1)
    print(" ".join(sorted(set(programs.values()))))


class Rewriter:
    def __init__(self, build, source, programs):
        self.build, self.source, self.programs = build, source, programs
        self.sources = set()        # source paths the commands read
        self.up = os.path.dirname(source)
        self.outside = set()        # paths beside the repo they read

    def _under(self, path, root):
        return path == root or path.startswith(root + "/")

    def path(self, arg, first):
        """one argument as shell words for run.sh's eval"""
        if "=" in arg and not arg.startswith("/"):
            key, val = arg.split("=", 1)
            if val.startswith("/"):
                return shlex.quote(key + "=") + self.path(val, False)
        if not arg.startswith("/"):
            return shlex.quote(arg)
        real = os.path.realpath(arg)
        if real in self.programs:
            return '"$K"/' + shlex.quote("bin/" + os.path.basename(real))
        if self._under(real, self.build):
            rel = os.path.relpath(real, self.build)
            return '"$W"/' + shlex.quote(os.path.join("_build", rel))
        if self._under(real, self.source):
            rel = os.path.relpath(real, self.source)
            self.sources.add(rel)
            return '"$W"/' + shlex.quote(rel)
        if (self.up != "/" and self._under(real, self.up)
                and os.path.exists(real)):
            rel = os.path.relpath(real, self.up)     # ../shared/seeds/...
            self.outside.add(rel)
            return '"$W"/' + shlex.quote(os.path.join("_outside", rel))
        if first and os.path.isfile(arg) and os.access(arg, os.X_OK):
            return shlex.quote(os.path.basename(arg))   # bash, python3, ...
        return shlex.quote(arg)

    def command(self, argv):
        if (len(argv) >= 3 and os.path.basename(argv[0]).startswith("cmake")
                and argv[1:3] == ["-E", "env"]):
            argv = ["env"] + argv[3:]
        return " ".join(self.path(a, i == 0) for i, a in enumerate(argv))


def system_lib(path):
    base = os.path.basename(path)
    return any(base.startswith(s) for s in SYSTEM_LIBS)


def bundle_libs(programs, libdir):
    """copy the shared libraries the programs load, bar glibc's, to lib/"""
    libs = {}
    for p in programs:
        out = subprocess.run(["ldd", p], capture_output=True, text=True,
                             check=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if "not found" in line:
                die("%s: %s" % (p, line.strip()))
            if len(parts) >= 3 and parts[1] == "=>":
                soname, path = parts[0], parts[2]
                if "LLVM" in soname:
                    die("%s still loads %s" % (p, soname))
                if not system_lib(path):
                    libs[soname] = path
    os.makedirs(libdir, exist_ok=True)
    for soname, path in sorted(libs.items()):
        dst = os.path.join(libdir, soname)
        shutil.copy2(os.path.realpath(path), dst)
        subprocess.run(["strip", "--strip-unneeded", dst], check=True)
    return sorted(libs)


def read_paths(rels, paths_file):
    if os.path.exists(paths_file):
        with open(paths_file) as f:
            rels = set(rels) | {l.strip() for l in f if l.strip()}
    return set(rels)


def copy_path(src, dst):
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    if os.path.isdir(src):
        shutil.copytree(src, dst, ignore=SKIP_SOURCES, symlinks=True,
                        dirs_exist_ok=True)
    elif os.path.exists(src):
        shutil.copy2(src, dst)


def copy_sources(source, rels, outside, build, srcdir):
    """each top-level source folder a test reads, less the C sources, and
    each path beside the repo it reads, as _outside/..."""
    rels = read_paths(rels, os.path.join(build, "kit-source-paths.txt"))
    outside = read_paths(outside, os.path.join(build, "kit-outside-paths.txt"))
    tops = sorted({r.split("/", 1)[0] for r in rels})
    os.makedirs(srcdir, exist_ok=True)
    for top in tops:
        copy_path(os.path.join(source, top), os.path.join(srcdir, top))
    up = os.path.dirname(source)
    for rel in sorted(outside):
        copy_path(os.path.join(up, rel), os.path.join(srcdir, "_outside", rel))
    return tops + (["_outside"] if outside else [])


# build folders holding shared objects tests load by path
TEST_LIB_DIRS = ("tests", "examples/emm")


def copy_test_libs(build, dst):
    """the shared objects the tests load by path (the fake libcuda the
    driver tests dlopen, the memory-manager plug-ins): run.sh links them
    into "$W"/_build/..."""
    copied = []
    for rel in TEST_LIB_DIRS:
        folder = os.path.join(build, rel)
        names = sorted(os.listdir(folder)) if os.path.isdir(folder) else []
        for name in names:
            path = os.path.join(folder, name)
            if name.endswith(".so") and os.path.isfile(path):
                os.makedirs(os.path.join(dst, rel), exist_ok=True)
                subprocess.run(["strip", "--strip-unneeded", "-o",
                                os.path.join(dst, rel, name), path],
                               check=True)
                copied.append(rel + "/" + name)
    return copied


def build_dirs(build):
    """the build tree's folders that CMake made for source folders, which
    the programs may write into (as _build/...)"""
    dirs = []
    for root, sub, _ in os.walk(build):
        if "CMakeFiles" in sub:
            dirs.append(os.path.relpath(root, build))
        sub[:] = [d for d in sub if d not in ("CMakeFiles", ".cmake",
                                              "Testing", "_deps")]
    return sorted(dirs)


def word(s):
    """a manifest field: "-" when empty, as bash's read skips empty fields"""
    if "\t" in s or "\n" in s:
        die("a tab or newline in %r" % s)
    return s or "-"


def assemble(build, kit):
    build = os.path.realpath(build)
    with open(os.path.join(build, "kit-plan.json")) as f:
        p = json.load(f)
    source = p["source"]
    # CTest again, now that the programs exist: the full commands
    names = set(p["tests"])
    tests = [t for t in ctest_tests(build) if t["name"] in names]
    programs = programs_for(tests, codemodel_targets(build), built=True)
    check_names(programs)
    bindir = os.path.join(kit, "bin")
    os.makedirs(bindir, exist_ok=True)
    for path in sorted(programs):
        dst = os.path.join(bindir, os.path.basename(path))
        subprocess.run(["strip", "--strip-all", "-o", dst, path], check=True)
    libs = bundle_libs(sorted(programs), os.path.join(kit, "lib"))

    rw = Rewriter(build, source, programs)
    lines = []
    for t in tests:
        pr = t["props"]
        env = " ".join(rw.path(e, False) for e in pr.get("ENVIRONMENT", []))
        skip_re = " ".join(shlex.quote(r)
                           for r in pr.get("SKIP_REGULAR_EXPRESSION", []))
        lines.append("\t".join(word(x) for x in (
            t["name"], str(int(float(pr.get("TIMEOUT", 0)))),
            str(pr.get("SKIP_RETURN_CODE", "")),
            "1" if pr.get("WILL_FAIL") else "0",
            skip_re, env, rw.command(t["command"]))))
    with open(os.path.join(kit, "manifest.tsv"), "w") as f:
        f.write("# name\ttimeout_s\tskip_rc\twill_fail\tskip_regex\tenv\t"
                "command (shell words; $K kit, $W scratch)\n")
        f.write("\n".join(lines) + "\n")
    tops = copy_sources(source, rw.sources, rw.outside, build,
                        os.path.join(kit, "src"))
    helpers = copy_test_libs(build, os.path.join(kit, "build-files"))
    with open(os.path.join(kit, "build-dirs.txt"), "w") as f:
        f.write("\n".join(build_dirs(build)) + "\n")
    print("gpu-kit: %d program(s), %d test(s), lib/: %s, src/: %s, "
          "build-files/: %s"
          % (len(programs), len(lines), " ".join(libs) or "-",
             " ".join(tops) or "-", " ".join(helpers) or "-"),
          file=sys.stderr)


def main(argv):
    if len(argv) == 3 and argv[1] == "plan":
        plan(argv[2])
    elif len(argv) == 4 and argv[1] == "assemble":
        assemble(argv[2], argv[3])
    else:
        die("usage: gpu_kit.py plan BUILD | assemble BUILD KIT")


if __name__ == "__main__":
    main(sys.argv)
