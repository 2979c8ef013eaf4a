# SPDX-License-Identifier: MIT
"""The command line every tests/cli/test_*.py that uses it shares:

    test_X.py --list     the case names, one a line (tests/meson.build
                         registers one meson test per name)
    test_X.py CASE       run case_CASE(): 'ok CASE', or 'FAIL CASE: why'
                         on stderr and exit 1 when an assertion fails

The cases are the module's functions named case_*, in name order.
"""
import os
import sys


def main(module_globals):
    cases = {k[5:]: v for k, v in sorted(module_globals.items())
             if k.startswith('case_') and callable(v)}
    if sys.argv[1:] == ['--list']:
        print('\n'.join(cases))
        sys.exit(0)
    if len(sys.argv) != 2 or sys.argv[1] not in cases:
        sys.exit('usage: %s --list | CASE' % os.path.basename(sys.argv[0]))
    try:
        cases[sys.argv[1]]()
    except AssertionError as e:
        print('FAIL %s: %s' % (sys.argv[1], e), file=sys.stderr)
        sys.exit(1)
    print('ok', sys.argv[1])
