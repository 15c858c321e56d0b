"""python -m ufjit COMMAND ...: the `ufjit` command shipped with the
package (`python -m ufjit sysinfo` is `ufjit sysinfo`)."""

import os
import subprocess
import sys


def _cli():
    # the package's folders: an editable install (pip install -e) has two,
    # the sources and the one in site-packages holding the built files
    import ufjit
    for here in list(getattr(ufjit, "__path__", [])) + \
            [os.path.dirname(os.path.abspath(__file__))]:
        shipped = os.path.join(here, "_bin", "ufjit")
        if os.path.exists(shipped):
            return shipped
    try:  # the build tree's package
        from ._build_paths import CLI
        return CLI
    except ImportError:
        sys.exit("ufjit: the `ufjit` command is not part of this install")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    return subprocess.call([_cli()] + list(argv))


if __name__ == "__main__":
    sys.exit(main())
