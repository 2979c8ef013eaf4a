#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Open a page in headless Chromium at an exact viewport and take its
screenshot (tests/real/html-screenshot.sh).

    cdp_shot.py CHROMIUM URL WIDTH HEIGHT PNG [EXPR]

Headless Chromium will not make a window narrower than 500 px
(--window-size=420,... gives a 500 px page, in the old and the new
headless mode alike), so the viewport is set through the DevTools
protocol instead (Emulation.setDeviceMetricsOverride, over
--remote-debugging-pipe: no port, no network): the page is laid out
WIDTH x HEIGHT CSS px at scale 1 and the PNG is WIDTH x HEIGHT.  Prints
"WIDTH <clientWidth> <scrollWidth>" as the page measures itself, then the
value of EXPR (a JavaScript expression, evaluated after load) when given,
and each console message and uncaught exception as a line
"x:CONSOLE(level) text" on stderr.  Exit 0, 2 when Chromium fails.
"""
import base64
import json
import os
import subprocess
import sys
import tempfile


class Pipe:
    def __init__(self, chromium):
        self.prof = tempfile.mkdtemp(prefix='slt-cdp-')
        r_to, w_to = os.pipe()      # us -> chromium (its fd 3)
        r_from, w_from = os.pipe()  # chromium -> us (its fd 4)

        def fds():
            # its fds 3 and 4, whatever ours are (first above both)
            import fcntl
            a = fcntl.fcntl(r_to, fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(w_from, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)
        # no sandbox: root in a container; no GPU: none here
        self.proc = subprocess.Popen(
            [chromium, '--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run',
             '--hide-scrollbars', '--remote-debugging-pipe', '--user-data-dir=' + self.prof,
             'about:blank'], close_fds=False, preexec_fn=fds,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(r_to)
        os.close(w_from)
        self.w = os.fdopen(w_to, 'wb')
        self.r = os.fdopen(r_from, 'rb')
        self.n = 0
        self.buf = b''
        self.events = []

    def recv(self):
        while b'\0' not in self.buf:
            d = self.r.read1(65536)
            if not d:
                raise EOFError('chromium closed the pipe')
            self.buf += d
        msg, self.buf = self.buf.split(b'\0', 1)
        return json.loads(msg)

    def call(self, method, session=None, **params):
        self.n += 1
        m = {'id': self.n, 'method': method, 'params': params}
        if session:
            m['sessionId'] = session
        self.w.write(json.dumps(m).encode() + b'\0')
        self.w.flush()
        while True:
            r = self.recv()
            if r.get('id') == self.n:
                if 'error' in r:
                    raise RuntimeError('%s: %s' % (method, r['error']))
                return r.get('result', {})
            self.events.append(r)

    def wait(self, method):
        for i, e in enumerate(self.events):
            if e.get('method') == method:
                del self.events[i]
                return e
        while True:
            e = self.recv()
            if e.get('method') == method:
                return e
            self.events.append(e)

    def close(self):
        try:
            self.call('Browser.close')
        except (EOFError, RuntimeError, BrokenPipeError):
            pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        subprocess.run(['rm', '-rf', self.prof])


def console(events):
    for e in events:
        p = e.get('params', {})
        if e.get('method') == 'Runtime.consoleAPICalled':
            text = ' '.join(str(a.get('value', a.get('description', ''))) for a in p['args'])
            print('x:CONSOLE(%s) %s' % (p['type'], text), file=sys.stderr)
        elif e.get('method') == 'Runtime.exceptionThrown':
            print('x:CONSOLE(exception) %s' % p['exceptionDetails'].get('text'), file=sys.stderr)
        elif e.get('method') == 'Log.entryAdded':
            en = p['entry']
            print('x:CONSOLE(%s) %s %s' % (en['level'], en['text'], en.get('url', '')),
                  file=sys.stderr)


def main():
    chromium, url, w, h, png = sys.argv[1:6]
    expr = sys.argv[6] if len(sys.argv) > 6 else None
    w, h = int(w), int(h)
    c = Pipe(chromium)
    try:
        t = c.call('Target.createTarget', url='about:blank')['targetId']
        s = c.call('Target.attachToTarget', targetId=t, flatten=True)['sessionId']
        for d in ('Page', 'Runtime', 'Log'):
            c.call(d + '.enable', session=s)
        c.call('Emulation.setDeviceMetricsOverride', session=s, width=w, height=h,
               deviceScaleFactor=1, mobile=False)
        c.call('Page.navigate', session=s, url=url)
        c.wait('Page.loadEventFired')
        ev = c.call('Runtime.evaluate', session=s, returnByValue=True,
                    expression='document.documentElement.clientWidth + " " + '
                               'document.documentElement.scrollWidth')
        print('WIDTH', ev['result']['value'])
        if expr:
            ev = c.call('Runtime.evaluate', session=s, returnByValue=True, expression=expr)
            print(ev['result'].get('value', ev.get('exceptionDetails', {}).get('text')))
        shot = c.call('Page.captureScreenshot', session=s, format='png')
        with open(png, 'wb') as f:
            f.write(base64.b64decode(shot['data']))
        console(c.events)
    except (EOFError, RuntimeError, OSError) as e:
        print('cdp_shot: %s' % e, file=sys.stderr)
        return 2
    finally:
        c.close()
    return 0


if __name__ == '__main__':
    sys.exit(main())
