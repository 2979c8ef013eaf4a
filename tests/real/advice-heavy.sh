#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The layout advisor's search tests at full size (opt-in; the default suite
# runs a fifth of their random structs, tests/unit/heavy.h):
#   BUILD_DIR=$PWD/build-test tests/real/advice-heavy.sh
# Runs test_advice, test_advice_exact and test_advice_min with SLT_TEST_HEAVY=1 (about 300
# random structs per case, brute-force oracles up to 8 units, exact DP up
# to 18 units; several minutes under ASan+UBSan) and prints each binary's
# duration.  Exit status: that of the tests.
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$src/build-test}
[ -x "$build/tests/test_advice" ] || {
	echo "advice-heavy.sh: $build/tests/test_advice not built (meson setup $build -Dtests=true; meson compile -C $build)" >&2
	exit 2
}
cd "$src"
rc=0
for t in test_advice test_advice_exact test_advice_min; do
	start=$(date +%s)
	SLT_TEST_HEAVY=1 "$build/tests/$t" || rc=1
	echo "# $t (SLT_TEST_HEAVY=1): $(( $(date +%s) - start )) s"
done
exit $rc
