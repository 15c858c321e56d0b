#!/usr/bin/env bash
# Records Numba's answers to the oracle cases (tests/e2e/oracle_record.py)
# into tests/e2e/recorded/, by running the oracle tests of BUILD (default
# build) with UF_ORACLE_RECORD=1. Run it after changing a kernel file or
# its cases, or after upgrading Numba or NumPy, and commit the records:
# CI then asks Numba only for what changed since.
#   scripts/record-oracles.sh [BUILD] [CTEST-REGEX]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
regex=${2:-_oracle}
cd "$build"
UF_ORACLE_RECORD=1 ctest -R "$regex" -j "$(nproc)" --output-on-failure
