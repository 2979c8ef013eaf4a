# SPDX-License-Identifier: MIT
"""The command line every tests/cli/test_*.py shares:

    test_X.py --list     the case names, one a line (tests/meson.build
                         registers one meson test per name)
    test_X.py CASE...    run each case: 'ok CASE' on stdout, or
                         'FAIL CASE: why' on stderr and exit 1 at the
                         first failed assertion; an unknown name is a
                         usage error (exit 2)

A module passes its cases as a dict name -> function, or of_module(globals())
for its functions named case_* (in name order).  cleanup, when given, runs
once at the end whatever happened.
"""
import os
import sys


def of_module(module_globals):
    return {k[5:]: v for k, v in sorted(module_globals.items())
            if k.startswith('case_') and callable(v)}


def main(cases, cleanup=None):
    args = sys.argv[1:]
    if args == ['--list']:
        print('\n'.join(cases))
        sys.exit(0)
    if not args or any(a not in cases for a in args):
        print('usage: %s --list | CASE...' % os.path.basename(sys.argv[0]),
              file=sys.stderr)
        sys.exit(2)
    try:
        for name in args:
            try:
                cases[name]()
            except AssertionError as e:
                print('FAIL %s: %s' % (name, str(e)[:6000]), file=sys.stderr)
                sys.exit(1)
            print('ok', name)
    finally:
        if cleanup:
            cleanup()
