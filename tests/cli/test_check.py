#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""End-to-end tests of `structlint check --rules`: fixtures compiled twice
(before and after a change, gcc -g at test time) for every rule kind
(fixtures/gate/conn.c with conn.rules, conn_classes.rules + conn.classes)
and the kernel's cacheline groups (fixtures/gate/kgroups.c with
__cacheline_group_begin/end markers, kgroups.rst as member classes); each
asserts the exact violation lines, rule ids, sources and exit status; the
JSON and a SARIF 2.1.0 structure check; bad rules files exit 2 with
FILE:LINE:COLUMN.

    test_check.py --list          case names
    test_check.py CASE            run one case (exit 0 pass, 1 fail)
Environment: STRUCTLINT (binary), CC_GCC (compiler).
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SL = os.environ.get('STRUCTLINT', os.path.join(ROOT, 'build', 'structlint'))
CC = os.environ.get('CC_GCC', 'gcc')
GATE = os.path.join(ROOT, 'fixtures', 'gate')
CONN_C = os.path.join(GATE, 'conn.c')
KG_C = os.path.join(GATE, 'kgroups.c')
RULES = os.path.join(GATE, 'conn.rules')
CRULES = os.path.join(GATE, 'conn_classes.rules')
CLASSES = os.path.join(GATE, 'conn.classes')
KRULES = os.path.join(GATE, 'kgroups.rules')
KRST = os.path.join(GATE, 'kgroups.rst')
TMP = tempfile.mkdtemp(prefix='slt-check-')


def obj(src, change):
    out = os.path.join(TMP, '%s%d.o' % (os.path.basename(src)[:-2], change))
    if not os.path.exists(out):
        subprocess.run([CC, '-g', '-c', '-I', os.path.join(ROOT, 'tests', 'cli'),
                        '-DCHANGE=%d' % change, '-o', out, src], check=True)
    return out


def run(*args, rc=0, cwd=None):
    p = subprocess.run([SL, 'check'] + [str(a) for a in args], capture_output=True, text=True,
                       cwd=cwd or TMP)
    assert p.returncode == rc, (args, p.returncode, p.stdout[-3000:], p.stderr)
    if rc == 2:   # one error line, the last, after any warnings
        err = p.stderr.strip().split('\n')
        if '--sarif' in args:   # a SARIF log saying the check did not run
            inv = json.loads(p.stdout)['runs'][0]['invocations'][0]
            assert inv['executionSuccessful'] is False and inv['exitCode'] == 2, inv
            p.stdout = ''
        assert p.stdout == '' and err[-1].startswith('structlint: ') and \
            not err[-1].startswith('structlint: warning: ') and \
            all(l.startswith('structlint: warning: ') for l in err[:-1]), (p.stdout, p.stderr)
    else:   # warnings only (classes entries for members a version lacks)
        assert all(l.startswith('structlint: warning: ') for l in p.stderr.splitlines()), p.stderr
    return p


def lines(p):
    """The violation lines and the summary (the line saying how violations
    count is tested in test_findings_agree.py)."""
    return [x for x in p.stdout.rstrip('\n').split('\n')
            if not x.startswith('structlint: check: how violations count: ')]


# a class rule's violation from a classes file says what it is
CLASS_RULE = "; a class rule (layout hygiene from the members' classes), not a measured sharing finding"


def conn_line(msg, rule):
    return '%s:20: error: struct conn: %s [%s]' % (CONN_C, msg, rule)


def summary(structs, checks, errors, notes=0):
    return ('structlint: check: %d struct%s, %d checks: %d error%s, 0 warnings, %d note%s '
            '(0 suppressed): %s' % (structs, '' if structs == 1 else 's', checks, errors,
                                    '' if errors == 1 else 's', notes, '' if notes == 1 else 's',
                                    'FAILED' if errors else 'passed'))


# conn.rules, per change: the exact violations (message, rule id, rules line)
CONN = {
    0: [],
    1: [('groups read_mostly and hot_write share cacheline 0: read_mostly: ops (offset 0, 8 bytes), '
         'mss (offset 8, 4 bytes), window (offset 12, 4 bytes), name (offset 16, 8 bytes); hot_write: packets (offset 32, 8 bytes)',
         'separate', 5)],
    2: [('group read_mostly spans 2 cachelines (0..1), more than the 1 allowed', 'max-lines', 6),
        ('member bytes (8 bytes) is at offset 128, want 64', 'offset', 8),
        ('size 192 bytes, more than the 128 allowed', 'max-size', 9),
        ('3 cachelines (192 bytes, 64-byte lines), more than the 2 allowed', 'max-cachelines', 10),
        ('44 bytes of holes in 1 hole, more than the 40 allowed', 'max-holes', 11)],
    3: [('member ops (8 bytes) is at offset 8, want it first (offset 0); first is kind', 'first', 7)],
    4: [('member bytes (8 bytes) is at offset 72, want 64', 'offset', 8),
        ('43 bytes of holes in 2 holes, more than the 40 allowed', 'max-holes', 11),
        ('member bytes (8 bytes) at offset 72 does not start a cacheline (8 bytes into cacheline 1 of '
         '64 bytes)', 'cacheline-start', 12)],
    5: [],
}


def conn_case(change):
    o = obj(CONN_C, change)
    want = CONN[change]
    p = run(o, '--rules', RULES, rc=1 if want else 0)
    assert lines(p) == [conn_line(m, r) for m, r, _ in want] + [summary(1, 8, len(want))], lines(p)
    d = json.loads(run(o, '--rules', RULES, '--json', rc=1 if want else 0).stdout)
    assert d['schema'] == 'structlint.check/v1' and d['failed'] == bool(want), d
    assert d['errors'] == len(want) and d['checks'] == 8 and d['structs_checked'] == 1, d
    got = [(v['message'], v['rule'], v['source']) for v in d['violations']]
    assert got == [(m, r, '%s:%d' % (RULES, ln)) for m, r, ln in want], got
    for v in d['violations']:
        assert v['decl_file'] == CONN_C and v['decl_line'] == 20 and v['struct'] == 'conn', v
        assert v['severity'] == 'error' and v['suppressed'] is False, v


def case_rules_before():
    conn_case(0)


def case_rules_separate():
    conn_case(1)


def case_rules_sizes():
    conn_case(2)


def case_rules_first():
    conn_case(3)


def case_rules_offsets():
    conn_case(4)


def case_rules_classes():
    """no-hot-write-near and class:CLASS groups, with a classes file."""
    assert lines(run(obj(CONN_C, 5), '--rules', RULES))[-1] == summary(1, 8, 0)
    p = run(obj(CONN_C, 0), '--rules', CRULES, '--classes', CLASSES)
    assert lines(p) == [summary(1, 2, 0)], lines(p)
    p = run(obj(CONN_C, 5), '--rules', CRULES, '--classes', CLASSES, rc=1)
    assert lines(p) == [
        conn_line('cacheline 0 of mss (offset 8, 4 bytes) holds written drops (hot-write, offset 32, 8 bytes); '
                  'read-mostly on it: ops (offset 0, 8 bytes), window (offset 12, 4 bytes), name (offset 16, 8 bytes)'
                  + CLASS_RULE, 'no-hot-write-near'),
        conn_line('groups class:read-mostly and class:hot-write share cacheline 0: '
                  'class:read-mostly: ops (offset 0, 8 bytes), mss (offset 8, 4 bytes), window (offset 12, 4 bytes), '
                  'name (offset 16, 8 bytes); class:hot-write: drops (offset 32, 8 bytes)' + CLASS_RULE, 'separate'),
        summary(1, 2, 2)], lines(p)
    d = json.loads(run(obj(CONN_C, 5), '--rules', CRULES, '--classes', CLASSES, '--json', rc=1).stdout)
    assert [(v['member'], v['offset'], v['source']) for v in d['violations']] == [
        ('drops', 32, CRULES + ':3'), ('ops', 0, CRULES + ':4')], d
    # classes are needed: exit 2 naming the rule's place
    p = run(obj(CONN_C, 5), '--rules', CRULES, rc=2)
    assert p.stderr.startswith('structlint: %s:3:1: no-hot-write-near needs member classes' % CRULES), p.stderr
    # a classes file that classes none of conn's members: exit 2, not a pass
    other = os.path.join(TMP, 'other.classes')
    with open(other, 'w') as f:
        f.write('[sock_like]\nrcv_wnd read-mostly\n')
    p = run(obj(CONN_C, 5), '--rules', CRULES, '--classes', other, rc=2)
    assert p.stderr == ('structlint: warning: %s: classes for sock_like, none for the structs '
                        'checked\n' % other) + \
        ('structlint: %s:3:1: no-hot-write-near needs member classes: no class is '
                        'given for any member of conn (name the struct\'s members in the classes '
                        'file (STRUCT.MEMBER CLASS or a [STRUCT] section))\n' % CRULES), p.stderr
    # --classes is repeatable: the files are merged (before: last one won)
    p = run(obj(CONN_C, 5), '--rules', CRULES, '--classes', CLASSES, '--classes', other, rc=1)
    assert lines(p)[-1] == summary(1, 2, 2), lines(p)
    # and a member the two files class differently is an error naming both
    with open(other, 'w') as f:
        f.write('conn.drops read-mostly\n')
    p = run(obj(CONN_C, 5), '--rules', CRULES, '--classes', CLASSES, '--classes', other, rc=2)
    assert p.stderr.startswith('structlint: %s:1: conn.drops is read-mostly here but hot-write at %s:'
                               % (other, CLASSES)), p.stderr
    # entries for members this build lacks: the warning report prints
    p = run(obj(CONN_C, 0), '--rules', CRULES, '--classes', CLASSES)
    assert "conn has no member 'drops'" in p.stderr, p.stderr
    # a FILE operand that is not built yet is not a struct name
    p = run(os.path.join(TMP, 'conn9.o'), '--rules', CRULES, rc=2)
    assert p.stderr == 'structlint: %s: no such file (build it first, or check the path)\n' \
        % os.path.join(TMP, 'conn9.o'), p.stderr


def case_cacheline():
    """--cacheline 128: the same layout against 128-byte lines.  conn.rules
    wants bytes at offset 64 and at a cacheline start, which no layout
    meets with 128-byte lines: a rules error naming both lines; without
    the offset rule the violations are reported."""
    p = run(obj(CONN_C, 0), '--rules', RULES, '--cacheline', '128', rc=2)
    assert p.stderr.startswith("structlint: %s:12:1: cacheline-start contradicts line 8: 'bytes' "
                               "at offset 64 can start no 128-byte cacheline" % RULES), p.stderr
    rules = os.path.join(TMP, 'conn128.rules')
    with open(RULES) as f, open(rules, 'w') as g:
        g.write(f.read().replace('offset bytes = 64', '# offset bytes = 64'))
    p = run(obj(CONN_C, 0), '--rules', rules, '--cacheline', '128', rc=1)
    assert lines(p) == [
        conn_line('groups read_mostly and hot_write share cacheline 0: read_mostly: ops '
                  '(offset 0, 8 bytes), mss (offset 8, 4 bytes), window (offset 12, 4 bytes), name '
                  '(offset 16, 8 bytes); hot_write: '
                  'bytes (offset 64, 8 bytes), packets (offset 72, 8 bytes)', 'separate'),
        conn_line('member bytes (8 bytes) at offset 64 does not start a cacheline (64 bytes into '
                  'cacheline 0 of 128 bytes)', 'cacheline-start'),
        summary(1, 7, 2)], lines(p)


def kg_line(sev, msg, rule):
    return '%s:19: %s: struct sock_like: %s [%s]' % (KG_C, sev, msg, rule)


def note(name, a, b, lf, ll, cls):
    return kg_line('note', 'cacheline group %s: bytes %d..%d (%d bytes), cachelines %d..%d (%d), %s'
                   % (name, a, b, b - a, lf, ll, ll - lf + 1, cls), 'cacheline-group')


def case_kernel_groups_before():
    want = [note('sock_read_tx', 64, 80, 1, 1, 'read-mostly'),
            note('sock_write_tx', 128, 140, 2, 2, 'written'),
            note('sock_read_rx', 192, 196, 3, 3, 'read-mostly')]
    # markers alone: an empty section, and a STRUCT operand
    empty = os.path.join(TMP, 'empty.rules')
    with open(empty, 'w') as f:
        f.write('[struct sock_like]\n')
    for extra in ([], ['sock_like']):
        p = run(obj(KG_C, 0), *extra, '--rules', empty)
        assert lines(p) == want + [summary(1, 2, 0, 3)], lines(p)
    p = run(obj(KG_C, 0), '--rules', KRULES, '--classes', KRST)
    assert lines(p) == want + [summary(1, 9, 0, 3)], lines(p)


def case_kernel_groups_sharing():
    p = run(obj(KG_C, 1), '--rules', KRULES, rc=1)
    assert lines(p) == [
        note('sock_read_tx', 64, 80, 1, 1, 'read-mostly'),
        note('sock_write_tx', 80, 92, 1, 1, 'written'),
        note('sock_read_rx', 128, 132, 2, 2, 'read-mostly'),
        kg_line('error', 'read-mostly cacheline group sock_read_tx (bytes 64..80) shares '
                'cacheline 1 with written group sock_write_tx (bytes 80..92)',
                'cacheline-group-sharing'),
        summary(1, 3, 1, 3)], lines(p)
    # --no-notes: the note lines left out, still counted
    p = run(obj(KG_C, 1), '--rules', KRULES, '--no-notes', rc=1)
    assert lines(p) == [
        kg_line('error', 'read-mostly cacheline group sock_read_tx (bytes 64..80) shares '
                'cacheline 1 with written group sock_write_tx (bytes 80..92)',
                'cacheline-group-sharing'),
        summary(1, 3, 1, 3).replace('3 notes', '3 notes not shown')], lines(p)
    for other in ('--json', '--sarif'):
        p = run(obj(KG_C, 1), '--rules', KRULES, '--no-notes', other, rc=2)
        assert '--no-notes applies to the text output only' in p.stderr, p.stderr


def case_kernel_groups_members():
    p = run(obj(KG_C, 2), '--rules', KRULES, '--classes', KRST, rc=1)
    assert lines(p) == [
        kg_line('error', 'group sock_write_tx spans 2 cachelines (2..3), more than the 1 '
                'allowed', 'max-lines'),
        kg_line('error', 'begin marker of cacheline group sock_read_rx at offset 256 has no '
                'matching end marker after it', 'cacheline-group-markers'),
        note('sock_read_tx', 64, 80, 1, 1, 'read-mostly'),
        note('sock_write_tx', 128, 204, 2, 3, 'written'),
        kg_line('error', 'read-mostly member rcv_wnd (offset 140, 64 bytes) is in written '
                'cacheline group sock_write_tx', 'cacheline-group-member'),
        # outside its groups but beside nothing written: a warning
        kg_line('warning', 'read-mostly member copied_seq (offset 256, 4 bytes) is outside every '
                'read-mostly cacheline group; no written member shares its cachelines',
                'cacheline-group-member'),
        summary(1, 9, 3, 2).replace('0 warnings', '1 warning')], lines(p)
    d = json.loads(run(obj(KG_C, 2), '--rules', KRULES, '--classes', KRST, '--json', rc=1).stdout)
    srcs = [(v['rule'], v['source']) for v in d['violations'] if v['severity'] == 'error']
    assert ('max-lines', KRULES + ':2') in srcs and ('cacheline-group-member', 'kernel markers') in srcs, srcs


def check_sarif(doc, n_results):
    """The structure SARIF 2.1.0 requires (sarifLog 3.13, run 3.14, tool
    3.18, toolComponent 3.19, reportingDescriptor 3.49, result 3.27,
    location 3.28, physicalLocation 3.29, artifactLocation 3.4, region
    3.30, message 3.11), with the types the schema gives them."""
    allowed_top = {'$schema', 'version', 'runs', 'inlineExternalProperties', 'properties'}
    assert set(doc) <= allowed_top, set(doc) - allowed_top
    assert doc['version'] == '2.1.0' and isinstance(doc['runs'], list) and len(doc['runs']) == 1
    run_ = doc['runs'][0]
    drv = run_['tool']['driver']
    assert isinstance(drv['name'], str) and drv['name'] == 'structlint' and isinstance(drv['version'], str)
    ids = [r['id'] for r in drv['rules']]
    assert len(ids) == len(set(ids)), ids
    for r in drv['rules']:
        assert isinstance(r['id'], str) and r['shortDescription']['text'] and r['help']['text'], r
        assert r['defaultConfiguration']['level'] in ('none', 'note', 'warning', 'error'), r
    assert len(run_['results']) == n_results, run_['results']
    for res in run_['results']:
        assert res['ruleId'] in ids and ids[res['ruleIndex']] == res['ruleId'], res
        assert res['level'] in ('none', 'note', 'warning', 'error'), res
        assert isinstance(res['message']['text'], str) and res['message']['text'], res
        for loc in res['locations']:
            phys = loc['physicalLocation']
            assert isinstance(phys['artifactLocation']['uri'], str), phys
            if 'region' in phys:
                assert isinstance(phys['region']['startLine'], int) and phys['region']['startLine'] >= 1
    return run_


def fnv1a(*parts):
    h = 0xcbf29ce484222325
    for b in b'\0'.join(p.encode() for p in parts) + b'\0':
        h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
    return '%016x' % h


def case_sarif():
    # run from TMP: the decl file is outside the current directory, a
    # file:// URI
    p = run(obj(CONN_C, 2), '--rules', RULES, '--sarif', rc=1)
    r = check_sarif(json.loads(p.stdout), 5)
    res = r['results'][0]
    assert res['ruleId'] == 'max-lines' and res['level'] == 'error', res
    assert res['message']['text'] == 'struct conn: group read_mostly spans 2 cachelines (0..1), more than the 1 allowed', res
    loc = res['locations'][0]['physicalLocation']
    assert loc['artifactLocation'] == {'uri': 'file://' + CONN_C} and loc['region']['startLine'] == 20, loc
    assert 'originalUriBaseIds' not in r, r
    assert res['properties']['source'] == RULES + ':6', res
    # partialFingerprints: FNV-1a of rule, struct, member, then the
    # occurrence; distinct for the five results on one line, the same on
    # a second run
    fps = [x['partialFingerprints']['structlintViolation/v1'] for x in r['results']]
    assert fps == ['%s:1' % fnv1a(x['ruleId'], 'conn', x['properties'].get('member', ''))
                   for x in r['results']], fps
    assert len(set(fps)) == 5, fps
    again = json.loads(run(obj(CONN_C, 2), '--rules', RULES, '--sarif', rc=1).stdout)
    assert [x['partialFingerprints'] for x in again['runs'][0]['results']] == \
        [x['partialFingerprints'] for x in r['results']]
    # kernel groups: the notes are left out unless --notes (text and JSON
    # keep them)
    r = check_sarif(json.loads(run(obj(KG_C, 1), '--rules', KRULES, '--sarif', '--pretty', rc=1).stdout), 1)
    assert [x['level'] for x in r['results']] == ['error'], r['results']
    assert [x['id'] for x in r['tool']['driver']['rules']] == ['cacheline-group-sharing'], r
    r = check_sarif(json.loads(run(obj(KG_C, 1), '--rules', KRULES, '--sarif', '--notes', rc=1).stdout), 4)
    assert [x['level'] for x in r['results']] == ['note', 'note', 'note', 'error'], r['results']
    check_sarif(json.loads(run(obj(CONN_C, 0), '--rules', RULES, '--sarif').stdout), 0)
    # --json and --sarif together, or the SARIF options without --sarif,
    # are usage errors
    run(obj(CONN_C, 0), '--rules', RULES, '--sarif', '--json', rc=2)
    p = run(obj(CONN_C, 0), '--rules', RULES, '--notes', rc=2)
    assert '--notes applies to --sarif output only' in p.stderr, p.stderr
    p = run(obj(CONN_C, 0), '--rules', RULES, '--json', '--source-root', ROOT, rc=2)
    assert '--source-root applies to --sarif output only' in p.stderr, p.stderr


def case_sarif_locations():
    """Relative uris with uriBaseId %SRCROOT% for decl files under the
    current directory or --source-root (OASIS SARIF 2.1.0 3.4.4,
    3.14.14)."""
    o = obj(CONN_C, 1)
    rel = os.path.relpath(CONN_C, ROOT)
    want_loc = {'uri': rel, 'uriBaseId': '%SRCROOT%'}
    want_base = {'%SRCROOT%': {'uri': 'file://%s/' % ROOT}}
    for args, cwd in [((), ROOT), (('--source-root', ROOT), TMP),
                      (('--source-root', ROOT + '/'), TMP), (('--source-root', '.'), ROOT)]:
        r = check_sarif(json.loads(run(o, '--rules', RULES, '--sarif', *args, rc=1, cwd=cwd).stdout), 1)
        loc = r['results'][0]['locations'][0]['physicalLocation']['artifactLocation']
        assert loc == want_loc and r['originalUriBaseIds'] == want_base, (args, cwd, loc, r)
    # a root the file is not under: file:// as without one
    r = check_sarif(json.loads(run(o, '--rules', RULES, '--sarif', '--source-root', TMP, rc=1).stdout), 1)
    assert r['results'][0]['locations'][0]['physicalLocation']['artifactLocation'] == \
        {'uri': 'file://' + CONN_C}, r
    # bytes a URI cannot hold are percent-encoded
    d = os.path.join(TMP, 'a dir')
    os.makedirs(d, exist_ok=True)
    src = os.path.join(d, 'conn.c')
    with open(CONN_C) as f, open(src, 'w') as g:
        g.write(f.read())
    o2 = os.path.join(TMP, 'spaced.o')
    subprocess.run([CC, '-g', '-c', '-I', os.path.join(ROOT, 'tests', 'cli'), '-DCHANGE=1',
                    '-o', o2, src], check=True)
    r = check_sarif(json.loads(run(o2, '--rules', RULES, '--sarif', rc=1, cwd=ROOT).stdout), 1)
    assert r['results'][0]['locations'][0]['physicalLocation']['artifactLocation'] == \
        {'uri': 'file://%s/a%%20dir/conn.c' % TMP}, r
    r = check_sarif(json.loads(run(o2, '--rules', RULES, '--sarif', rc=1).stdout), 1)
    assert r['results'][0]['locations'][0]['physicalLocation']['artifactLocation'] == \
        {'uri': 'a%20dir/conn.c', 'uriBaseId': '%SRCROOT%'}, r


BAD = [
    # (text, expected stderr prefix after "structlint: FILE:")
    ('max-size = 1\n', '1:1: rule outside a section: \'max-size\''),
    ('[struct conn]\nmax-sise = 3\n', '2:1: unknown key \'max-sise\''),
    ('[struct conn]\nmax-size 3\n', '2:1: missing \'=\' after \'3\''),
    ('[struct conn]\nmax-size = lots\n', '2:12: not a number: \'lots\''),
    ('[struct conn]\n  offset = 3\n', '2:3: this key takes one name before \'=\': \'offset\''),
    ('[struct conn]\nseparate = a\n', '2:10: want two or more groups after \'=\' for \'separate\''),
    ('[struct conn\n', '1:1: section without \']\''),
    ('[struct conn]\ngroup g = a\ngroup g = b\n', '3:7: group defined twice: \'g\''),
    ('[struct conn]\nfirst = a $\n', '2:11: unexpected character \'$\''),
    ('# nothing\n', 'the rules file names no struct'),
    ('[struct conn]\nfirst = opz\n', '2:9: struct conn has no member \'opz\' (did you mean ops?)'),
    ('[struct conn]\ngroup g = ops windw\n', '2:15: struct conn has no member \'windw\' (did you mean window?)'),
    ('[struct conn]\nseparate = read_mostly hot\n', '2:12: struct conn has no group \'read_mostly\''),
    ('[struct conn]\ngroup rm = ops\nseparate = rm clas:cold\n', '3:15: struct conn has no group \'clas:cold\' (did you mean class:cold?)'),
    ('[struct nosuch]\n', 'no_such'),
    # values that cannot hold, ambiguous groups, limits given twice
    ('[struct conn]\nmax-lines read_mostly = 0\n', '2:25: max-lines of 0 can never hold (want 1 or more'),
    ('[struct conn]\nmax-cachelines = 0\n', '2:18: max-cachelines of 0 can never hold'),
    ('[struct conn]\ngroup a = ops mss\ngroup b = window mss\n',
     "3:18: member 'mss' is already in group 'a' (line 2) (a member belongs to one group"),
    ('[struct conn]\noffset ops = 0\noffset ops = 8\n', '3:1: offset ops given twice: line 2 says 0'),
    ('[struct conn]\nmax-size = 128\nmax-size = 256\n', '3:1: max-size given twice: line 2 says 128'),
    # rules that can never hold together (the cacheline one for -c 64)
    ('[struct conn]\noffset ops = 8\ncacheline-start = ops\n',
     "3:1: cacheline-start contradicts line 2: 'ops' at offset 8 can start no 64-byte cacheline"),
    ('[struct conn]\nmax-size = 64\noffset ops = 1000\n',
     "3:1: offset contradicts line 2: 'ops' at offset 1000 in a struct of at most 64 bytes"),
    ('[struct conn]\nfirst = ops\noffset mss = 0\n',
     "3:1: offset contradicts line 2: 'ops' first and 'mss' at offset 0"),
    # a section's keyword that the layout contradicts
    ('[union conn]\nmax-size = 128\n', '1:8: [union conn] names a struct (write [struct NAME])'),
    # a section naming a struct the file lacks: the rules file's place
    ('[struct conx]\n', "1:9: %s has no struct or union named 'conx' (did you mean conn?"),
]


def case_bad_rules():
    o = obj(CONN_C, 0)
    for i, (text, want) in enumerate(BAD):
        path = os.path.join(TMP, 'bad%d.rules' % i)
        with open(path, 'w') as f:
            f.write(text)
        p = run(o, '--rules', path, rc=2)
        p.stderr = p.stderr.rstrip('\n').split('\n')[-1]   # the error, after any warnings
        if want == 'no_such':     # no struct near that name: no suggestion
            assert p.stderr.startswith("structlint: %s:1:9: %s has no struct or union named "
                                       "'nosuch'" % (path, o)), p.stderr
            continue
        if '%s' in want:
            want = want % o
        if ':' in want.split(' ')[0]:
            assert p.stderr.startswith('structlint: %s:%s' % (path, want)), (text, p.stderr)
        else:
            assert p.stderr.startswith('structlint: %s: %s' % (path, want)), (text, p.stderr)
    run(o, '--rules', os.path.join(TMP, 'missing.rules'), rc=2)
    run(o, rc=2)                              # neither --rules nor --baseline
    run(o, '--rules', RULES, '--fail-on-findings', rc=2)


KL_C = os.path.join(ROOT, 'fixtures', 'layout', 'kernel_like.c')


def case_nested_paths():
    """Rules name members inside a named nested struct (a.b): the layout is
    loaded expanded, so the nested member's own offset and lines count;
    and separate never pairs a member with itself: a group named twice is
    refused, groups that overlap once classes are known are a rules error
    naming the member."""
    o = obj(KL_C, 0)
    rules = os.path.join(TMP, 'nested.rules')
    classes = os.path.join(TMP, 'nested.classes')
    with open(rules, 'w') as f:
        f.write('[struct cgroup]\nno-hot-write-near = last_bstat.cputime_stime\n'
                'cacheline-start = last_bstat.cputime_utime\ngroup a = last_bstat.cputime_utime\n'
                'group b = bstat\nseparate = a b\noffset bstat.sum_exec_runtime = 176\n')
    with open(classes, 'w') as f:
        f.write('cgroup.bstat hot-write\ncgroup.rstat_cpu read-mostly\n')
    p = run(o, '--rules', rules, '--classes', classes, rc=1)
    head = '%s:83: error: struct cgroup: ' % KL_C
    assert lines(p) == [
        head + 'cacheline 2 of last_bstat.cputime_stime (offset 144, 8 bytes) holds written bstat '
        '(hot-write, offset 160, 24 bytes)' + CLASS_RULE + ' [no-hot-write-near]',
        head + 'member last_bstat.cputime_utime (8 bytes) at offset 136 does not start a cacheline (8 bytes '
        'into cacheline 2 of 64 bytes) [cacheline-start]',
        head + 'groups a and b share cacheline 2: a: last_bstat.cputime_utime (offset 136, 8 bytes); b: '
        'bstat (offset 160, 24 bytes) [separate]',
        'structlint: check: 1 struct, 4 checks: 3 errors, 0 warnings, 0 notes (0 suppressed): '
        'FAILED'], lines(p)
    for text, want in (
            ('[struct cgroup]\ngroup a = level\nseparate = a a\n',
             "3:14: group 'a' is separated from itself"),
            ('[struct cgroup]\ngroup rm = rstat_cpu level\nseparate = rm class:read-mostly\n',
             "3:15: groups 'rm' and 'class:read-mostly' overlap: 1 member is in both: rstat_cpu"),
            ('[struct cgroup]\ngroup rm = last_bstat\ngroup w = last_bstat.cputime_utime\n'
             'separate = rm w\n', "4:15: groups 'rm' and 'w' overlap: 1 member is in both: "
             "last_bstat with last_bstat.cputime_utime")):
        with open(rules, 'w') as f:
            f.write(text)
        p = run(o, '--rules', rules, '--classes', classes, rc=2)
        assert p.stderr.startswith('structlint: %s:%s' % (rules, want)), (text, p.stderr)


def nst_objs():
    """struct nst with struct inner q on line 0 (nnew.o) and line 1 (nold.o)."""
    src = {}
    for name, body in (('nnew', 'long ro1; struct inner q; long cold[7]; long tail[6];'),
                       ('nold', 'long ro1; long cold[7]; struct inner q; long tail[6];')):
        c = os.path.join(TMP, name + '.c')
        with open(c, 'w') as f:
            f.write('struct inner { int lock; int pad; long qlen; };\n'
                    'struct nst { %s };\nstruct nst v;\n' % body)
        src[name] = os.path.join(TMP, name + '.o')
        subprocess.run([CC, '-g', '-c', '-o', src[name], c], check=True)
    return src


def case_baseline_samples():
    """check --baseline B --samples P: a baseline recorded without classes
    is compared with the classes measured from P (as check --rules
    --samples uses them), not left without classes."""
    src = nst_objs()
    # stores and loads in different functions: report finds the collision
    # (loads made together with the stores would share nothing more)
    rows = lambda kind: [{'cpu': c, kind: 100, 'symbol': ('f+0x10' if kind == 'stores' else
                                                          'g+0x10')} for c in range(4)]
    prof = os.path.join(TMP, 'nst.json')
    with open(prof, 'w') as f:
        json.dump({'schema': 'structlint.profile/v1', 'structs': [{'type': 'nst', 'members': [
            {'member': 'q.lock', 'rows': rows('stores')},
            {'member': 'ro1', 'rows': rows('loads')}]}]}, f)
    b = subprocess.run([SL, 'baseline', src['nold'], 'nst'], capture_output=True, text=True,
                       cwd=TMP)
    assert b.returncode == 0, b.stderr
    bl = os.path.join(TMP, 'nst_none.bl.json')
    with open(bl, 'w') as f:
        f.write(b.stdout)
    p = subprocess.run([SL, 'check', src['nnew'], '--baseline', bl, '--samples', prof],
                       capture_output=True, text=True, cwd=TMP)
    assert p.returncode == 1, (p.stdout, p.stderr)
    assert any(l.endswith('[baseline-hot-shares-read-mostly]') and 'written q.lock' in l
               and 'read-mostly ro1' in l for l in lines(p)), lines(p)
    assert 'baseline-no-classes' not in p.stdout, p.stdout


def case_nested_classes():
    """Classes given inside a named nested struct (q.lock) apply to the
    innermost member in check and in a baseline comparison, as in report
    (the layout is loaded expanded for them): rules, class: groups, writer
    labels and the baseline all see q.lock on line 0 with ro1."""
    src = nst_objs()
    files = {}
    for name, text in (('nst.classes', '[nst]\nro1 read-mostly\nq.lock hot-write\n'),
                       ('lab.classes', '[nst]\nro1 hot-write:a\nq.lock hot-write:b\n'),
                       ('near.rules', '[struct nst]\nno-hot-write-near = ro1\n'),
                       ('sep.rules', '[struct nst]\nseparate = class:read-mostly class:hot-write\n'),
                       ('empty.rules', '[struct nst]\n')):
        files[name] = os.path.join(TMP, name)
        with open(files[name], 'w') as f:
            f.write(text)
    head = '%s:2: error: struct nst: ' % os.path.join(TMP, 'nnew.c')
    p = run(src['nnew'], '--rules', files['near.rules'], '--classes', files['nst.classes'], rc=1)
    assert lines(p)[0] == head + 'cacheline 0 of ro1 (offset 0, 8 bytes) holds written q.lock ' \
        '(hot-write, offset 8, 4 bytes)' + CLASS_RULE + ' [no-hot-write-near]', lines(p)
    p = run(src['nnew'], '--rules', files['sep.rules'], '--classes', files['nst.classes'], rc=1)
    assert lines(p)[0].endswith('class:hot-write: q.lock (offset 8, 4 bytes)' + CLASS_RULE +
                                ' [separate]'), lines(p)
    p = run(src['nnew'], '--rules', files['empty.rules'], '--classes', files['lab.classes'], rc=1)
    assert lines(p)[0].startswith(head + 'cacheline 0 holds members written by different writers: '
                                  'ro1 (hot-write:a, offset 0, 8 bytes), q.lock (hot-write:b, '
                                  'offset 8, 4 bytes)'), lines(p)
    b = subprocess.run([SL, 'baseline', src['nold'], 'nst', '--classes', files['nst.classes']],
                       capture_output=True, text=True, cwd=TMP)
    assert b.returncode == 0, b.stderr
    bl = os.path.join(TMP, 'nst.bl.json')
    with open(bl, 'w') as f:
        f.write(b.stdout)
    p = run(src['nnew'], '--baseline', bl, rc=1)
    assert any(l.endswith('[baseline-hot-shares-read-mostly]') and 'q.lock' in l
               for l in lines(p)), lines(p)
    assert not any('is gone' in l for l in lines(p)), lines(p)


def case_error_last():
    """Exit 2 after warnings: the warnings first, each 'structlint: warning:',
    and exactly one error line, the last."""
    sup = os.path.join(TMP, 'never.json')
    with open(sup, 'w') as f:
        json.dump({'schema': 'structlint.suppressions/v1', 'suppressions': [
            {'rule': 'no-such-rule', 'struct': 'conn', 'reason': 'r'}]}, f)
    bad = os.path.join(TMP, 'unknown_member.rules')
    with open(bad, 'w') as f:
        f.write('[struct conn]\nfirst = nosuch\n')
    p = run(obj(CONN_C, 0), '--rules', bad, '--suppress', sup, rc=2)
    err = p.stderr.rstrip('\n').split('\n')
    assert len(err) == 2 and err[0].startswith('structlint: warning: ') and \
        "matches no rule id" in err[0], err
    assert err[1].startswith('structlint: %s:2:9: struct conn has no member' % bad), err


def case_checks_nothing():
    """A gate that checks nothing says so: a group no rule uses, a section
    with no rule for a struct without kernel groups, a classes file for
    none of the structs checked (warnings; the exit status is unchanged)."""
    rules = os.path.join(TMP, 'nothing.rules')
    with open(rules, 'w') as f:
        f.write('[struct conn]\ngroup a = ops mss\n')
    other = os.path.join(TMP, 'other.classes')
    with open(other, 'w') as f:
        f.write('cgroup.flags hot-write\n')
    p = run(obj(CONN_C, 0), '--rules', rules, '--classes', other)
    assert p.stderr.splitlines() == [
        "structlint: warning: %s:2:1: group 'a' of conn is used by no rule: it checks nothing "
        "(name it in separate or max-lines)" % rules,
        "structlint: warning: %s: classes for cgroup, none for the structs checked" % other,
        "structlint: warning: %s:1:9: [struct conn] has no rule and conn has no "
        "__cacheline_group_begin__ markers: nothing is checked" % rules], p.stderr
    assert lines(p) == [summary(1, 0, 0)], lines(p)
    # used groups, a classes file for conn, an empty section of a struct
    # with kernel groups: no warning
    p = run(obj(CONN_C, 0), '--rules', RULES, '--classes', CLASSES)
    assert 'checks nothing' not in p.stderr and 'none for the structs' not in p.stderr, p.stderr
    empty = os.path.join(TMP, 'empty_kg.rules')
    with open(empty, 'w') as f:
        f.write('[struct sock_like]\n')
    assert run(obj(KG_C, 0), '--rules', empty).stderr == ''


def case_sarif_failure():
    """Exit 2 with --sarif: the error line on stderr, and on stdout a valid
    SARIF log saying the check did not run (invocations[0]
    executionSuccessful false, the error as a toolExecutionNotification at
    RULES:LINE:COLUMN, no results), so an upload step does not fail too."""
    bad = os.path.join(TMP, 'sarif_bad.rules')
    with open(bad, 'w') as f:
        f.write('[struct conn]\nfirst = nosuch\n')
    p = subprocess.run([SL, 'check', obj(CONN_C, 0), '--rules', bad, '--sarif'],
                       capture_output=True, text=True, cwd=TMP)
    assert p.returncode == 2, (p.returncode, p.stderr)
    assert p.stderr.startswith('structlint: %s:2:9: struct conn has no member' % bad), p.stderr
    doc = json.loads(p.stdout)
    run_ = check_sarif(doc, 0)
    inv = run_['invocations']
    assert len(inv) == 1 and inv[0]['executionSuccessful'] is False and inv[0]['exitCode'] == 2, inv
    n = inv[0]['toolExecutionNotifications']
    assert len(n) == 1 and n[0]['level'] == 'error', n
    assert n[0]['message']['text'].startswith("struct conn has no member 'nosuch'"), n
    loc = n[0]['locations'][0]['physicalLocation']
    assert loc['artifactLocation'] == {'uri': 'sarif_bad.rules', 'uriBaseId': '%SRCROOT%'}, loc
    assert loc['region'] == {'startLine': 2, 'startColumn': 9}, loc
    assert run_['originalUriBaseIds']['%SRCROOT%']['uri'] == 'file://%s/' % TMP, run_
    # every other exit 2 writes one too: a rules syntax error, a missing
    # rules file, a missing FILE, usage errors (issue 15)
    syntax = os.path.join(TMP, 'sarif_syntax.rules')
    with open(syntax, 'w') as f:
        f.write('[struct conn]\nfirst = = x\n')
    o = obj(CONN_C, 0)
    for args in (['--rules', syntax, o], ['--rules', os.path.join(TMP, 'none.rules'), o],
                 ['--rules', RULES, os.path.join(TMP, 'none.o'), 'conn'],
                 ['--rules', RULES, '--bogus', o], ['--rules', RULES, '--cacheline', 'x', o],
                 [o], ['--sarif', '--json', '--rules', RULES, o]):
        p = subprocess.run([SL, 'check', '--sarif'] + args, capture_output=True, text=True,
                           cwd=TMP)
        assert p.returncode == 2 and p.stderr.count('\n') == 1, (args, p.returncode, p.stderr)
        doc = json.loads(p.stdout)
        inv = check_sarif(doc, 0)['invocations']
        assert inv[0]['executionSuccessful'] is False and inv[0]['exitCode'] == 2, (args, inv)
        text = inv[0]['toolExecutionNotifications'][0]['message']['text']
        assert text and text in p.stderr, (args, text, p.stderr)


def case_hints():
    """Input errors say what is wrong and what to do, at FILE:LINE:COLUMN
    for JSON as for rules; check's usage errors point at its own help."""
    o = obj(CONN_C, 0)
    p = run(o, '--rules', TMP, rc=2)
    assert p.stderr == 'structlint: %s: is a directory, not a rules file (give the rules file\'s ' \
        'path to --rules)\n' % TMP, p.stderr
    p = run(o, '--baseline', TMP, rc=2)
    assert p.stderr == 'structlint: %s: is a directory, not a file (give the JSON file\'s path)\n' \
        % TMP, p.stderr
    # a baseline over the size limit is refused from its size, unread (a
    # sparse file: no disk used)
    big = os.path.join(TMP, 'big-baseline.json')
    with open(big, 'wb') as f:
        f.truncate(300 << 20)
    p = run(o, '--baseline', big, rc=2)
    assert 'input over the size limit (314572800 bytes)' in p.stderr, p.stderr
    os.remove(big)
    p = run(o, rc=2)
    assert p.stderr == 'structlint: check: give --rules FILE or --baseline FILE, or STRUCT ' \
        'operands with --samples or --classes (report\'s findings are then gated) (see structlint ' \
        'check --help)\n', p.stderr
    p = run(o, '--rules', RULES, '--bogus', rc=2)
    assert p.stderr == "structlint: unknown option '--bogus' (see structlint check --help)\n", p.stderr
    # a suppressions file: its own hint, JSON positions as FILE:LINE:COLUMN
    sup = os.path.join(TMP, 'hint-sup.json')
    with open(sup, 'w') as f:
        f.write('{"schema": "structlint.suppressions/v1",\n "suppressions": [{"rule": "x"}]}')
    p = run(o, '--rules', RULES, '--suppress', sup, rc=2)
    assert p.stderr == ('structlint: %s:2:19: suppressions[0].struct is missing (each suppression is '
                        '{"rule", "struct", "member"?, "reason"} with non-empty strings (globs); see '
                        'structlint(1), structlint.suppressions/v1)\n' % sup), p.stderr
    # an empty file is said to be empty (no "column 0")
    with open(sup, 'w') as f:
        f.write('\n')
    p = run(o, '--rules', RULES, '--suppress', sup, rc=2)
    assert p.stderr == ('structlint: %s: the file is empty: want a suppressions file (want a '
                        'structlint.suppressions/v1 JSON document (structlint(1)))\n' % sup), p.stderr
    # a suppression whose rule matches no rule id: a warning, no effect
    with open(sup, 'w') as f:
        json.dump({'schema': 'structlint.suppressions/v1', 'suppressions': [
            {'rule': 'seperate', 'struct': 'conn', 'reason': 'r'},
            {'rule': 'sep*', 'struct': 'conn', 'reason': 'r'}]}, f)
    p = run(obj(CONN_C, 1), '--rules', RULES, '--suppress', sup, rc=0)
    assert p.stderr == ("structlint: warning: %s:1: rule 'seperate' matches no rule id: "
                        "this suppression never applies (rule ids: structlint(1), CHECK and BASELINE)\n"
                        % sup), p.stderr
    # located at the entry's line; a misspelt key is named; another
    # version of the format is not something to "re-record"
    with open(sup, 'w') as f:
        f.write('{"schema": "structlint.suppressions/v1", "suppressions": [\n'
                ' {"rule": "separate", "struct": "conn", "reason": "r"},\n'
                ' {"rule": "nosuch", "struct": "conn", "reason": "r"}]}\n')
    p = run(obj(CONN_C, 1), '--rules', RULES, '--suppress', sup, rc=0)
    assert p.stderr.startswith("structlint: warning: %s:3: rule 'nosuch'" % sup), p.stderr
    with open(sup, 'w') as f:
        f.write('{"schema": "structlint.suppressions/v1", "suppressions": [\n'
                ' {"rule": "separate", "struct": "conn", "reson": "r"}]}\n')
    p = run(o, '--rules', RULES, '--suppress', sup, rc=2)
    assert p.stderr.startswith('structlint: %s:2:2: suppressions[0] has an unknown key "reson" '
                               '(did you mean "reason"? ' % sup), p.stderr
    with open(sup, 'w') as f:
        f.write('{"schema": "structlint.suppressions/v2", "suppressions": []}\n')
    p = run(o, '--rules', RULES, '--suppress', sup, rc=2)
    assert p.stderr == ('structlint: %s:1:12: schema "structlint.suppressions/v2" is not supported '
                        '(this structlint reads structlint.suppressions/v1: write the file in that '
                        'format, structlint(1))\n' % sup), p.stderr
    # rules files: a UTF-8 byte order mark is skipped, a misspelt key gets
    # a did-you-mean, a non-ASCII byte is shown as \xNN, an unknown group
    # lists the groups there are
    rules = os.path.join(TMP, 'hint.rules')
    for text, want in ((b'\xef\xbb\xbf[struct conn]\nmax-sise = 3\n',
                        "2:1: unknown key 'max-sise' (did you mean max-size? want [struct NAME]"),
                       (b'[struct conn]\nfirst = \xc3\xa9\n', "2:9: unexpected character '\\xc3' ("),
                       (b'[struct conn]\ngroup ro = ops\nseparate = ro xyzzy\n',
                        "3:15: struct conn has no group 'xyzzy' (the groups of struct conn are ro, "
                        "or class:CLASS; define it with group xyzzy = MEMBER...)")):
        with open(rules, 'wb') as f:
            f.write(text)
        p = run(o, '--rules', rules, rc=2)
        assert p.stderr.startswith('structlint: %s:%s' % (rules, want)), (text, p.stderr)
    with open(rules, 'wb') as f:
        f.write(b'\xef\xbb\xbf[struct conn]\nmax-size = 128\n')
    run(o, '--rules', rules, rc=0)
    # one byte, not "1 bytes"
    src = os.path.join(TMP, 'onebyte.c')
    with open(src, 'w') as f:
        f.write('struct ob { char a; short b; char c; };\nstruct ob v;\n')
    o1 = os.path.join(TMP, 'onebyte.o')
    subprocess.run([CC, '-g', '-c', '-o', o1, src], check=True)
    rules = os.path.join(TMP, 'onebyte.rules')
    with open(rules, 'w') as f:
        f.write('[struct ob]\ncacheline-start = c\nmax-holes = 0\nmax-size = 1\n')
    p = run(o1, '--rules', rules, '--cacheline', '8', rc=1)
    assert [l.split(': struct ob: ')[1] for l in lines(p)[:-1]] == [
        'member c (1 byte) at offset 4 does not start a cacheline (4 bytes into cacheline 0 of 8 bytes) '
        '[cacheline-start]',
        '1 byte of holes in 1 hole, more than the 0 allowed [max-holes]',
        'size 6 bytes, more than the 1 allowed [max-size]'], lines(p)
    with open(src, 'w') as f:
        f.write('struct ob { char a; char c; };\nstruct ob v;\n')
    subprocess.run([CC, '-g', '-c', '-o', o1, src], check=True)
    p = run(o1, '--rules', rules, '--cacheline', '8', rc=1)
    assert [l.split(': struct ob: ')[1] for l in lines(p)[:-1]] == [
        'member c (1 byte) at offset 1 does not start a cacheline (1 byte into cacheline 0 of 8 bytes) '
        '[cacheline-start]',
        'size 2 bytes, more than the 1 allowed [max-size]'], lines(p)



if __name__ == '__main__':
    import clicases
    clicases.main(clicases.of_module(globals()))
