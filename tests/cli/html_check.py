#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks of a structlint HTML page (report/suggest --html), shared by
tests/cli/test_map.py and tests/real/html-screenshot.sh:

    html_check.py PAGE...       exit 0 when every page passes, 1 otherwise

- well-formed: parsed as XML (the page is XHTML-compatible) and every
  element closed in order by html.parser;
- self-contained: no http:, https: or protocol-relative reference, no
  src= attribute, no @import, no url() other than data:, no script,
  external stylesheet, frame, object, embed or image element;
- links resolve: every href is "#ID" of an element of the page (or data:),
  and no id is used twice.
"""
import html.parser
import re
import sys
import xml.etree.ElementTree as ET


class Balanced(html.parser.HTMLParser):
    """Every element closed in order (void elements written <x/>)."""
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.ids, self.hrefs, self.errors = [], set(), [], []

    def handle_starttag(self, tag, attrs):
        self.stack.append(tag)
        self.attrs(attrs)

    def handle_startendtag(self, tag, attrs):
        self.attrs(attrs)

    def attrs(self, attrs):
        for k, v in attrs:
            if k == 'id':
                if v in self.ids:
                    self.errors.append('duplicate id ' + v)
                self.ids.add(v)
            if k == 'href':
                self.hrefs.append(v)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append('</%s> closes <%s>' % (tag, self.stack[-1] if self.stack else ''))
        else:
            self.stack.pop()


def check_page(page):
    """Assert the checks above; returns the parser (ids, hrefs)."""
    assert page.startswith('<!DOCTYPE html>\n'), page[:100]
    root = ET.fromstring(page.split('\n', 1)[1])
    assert root.tag == 'html', root.tag
    p = Balanced()
    p.feed(page)
    p.close()
    assert not p.errors and not p.stack, (p.errors[:5], p.stack)
    low = page.lower()
    for bad in ('http:', 'https:', '@import', '<script', '<link rel="stylesheet"',
                '<iframe', '<object', '<embed', '<img'):
        assert bad not in low, bad
    assert not re.search(r'(href|src)\s*=\s*"//', low), 'protocol-relative reference'
    assert not re.search(r'\ssrc\s*=', low), 'src='
    for m in re.finditer(r'url\(([^)]*)\)', low):
        assert m.group(1).strip('\'" ').startswith('data:'), m.group(0)
    for h in p.hrefs:
        assert h.startswith('#') or h.startswith('data:'), h
        if h.startswith('#'):
            assert h[1:] in p.ids, 'dangling link ' + h
    return p


if __name__ == '__main__':
    bad = 0
    for path in sys.argv[1:]:
        try:
            with open(path, encoding='utf-8') as f:
                check_page(f.read())
            print('%s: ok' % path)
        except (AssertionError, ET.ParseError) as e:
            print('%s: FAIL: %s' % (path, e))
            bad = 1
    sys.exit(bad)
