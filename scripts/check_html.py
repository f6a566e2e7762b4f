#!/usr/bin/env python3
"""Opens genba's HTML report in headless Chromium and checks that it works.

Usage: check_html.py PAGE.html SCREENSHOT.png [report|causal]

causal: genba causal's page instead (its plots: how many, their points,
their captions, whether the browser laid them out).

Drives the browser over the DevTools protocol (websocket-client): loads the
page from its file, collects every console error, uncaught exception, log
entry (a Content-Security-Policy violation is one) and network request;
clicks a frame of the flame graph with real mouse events and reads which
frame the graph is zoomed into after; turns the mouse wheel over the
timeline and reads the time window before and after; takes a screenshot of
the whole page. Prints a JSON summary; exits 1 when the page logged an
error or asked the network for anything.
"""
import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import websocket


def browser():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    sys.exit("check_html: no chromium (apt-get install chromium)")


class Session:
    def __init__(self, url):
        self.ws = websocket.create_connection(url, timeout=30)
        self.next = 0
        self.events = []
        self.session = None

    def send(self, method, params=None, top=False):
        self.next += 1
        msg = {"id": self.next, "method": method, "params": params or {}}
        if self.session and not top:
            msg["sessionId"] = self.session
        self.ws.send(json.dumps(msg))
        while True:
            r = json.loads(self.ws.recv())
            if r.get("id") == self.next:
                if "error" in r:
                    raise RuntimeError(f"{method}: {r['error']}")
                return r.get("result", {})
            self.events.append(r)

    def wait(self, method, timeout=30):
        end = time.time() + timeout
        while time.time() < end:
            for i, e in enumerate(self.events):
                if e.get("method") == method:
                    return self.events.pop(i)
            self.events.append(json.loads(self.ws.recv()))
        raise RuntimeError(f"no {method} within {timeout} s")

    def eval(self, expr):
        r = self.send("Runtime.evaluate", {"expression": expr, "returnByValue": True})
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expr}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def click(self, x, y):
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y,
                                                   "button": "left", "clickCount": 1})


def main():
    page, shot = os.path.abspath(sys.argv[1]), sys.argv[2]
    url = "file://" + page
    profile = tempfile.mkdtemp(prefix="genba-chromium-")
    proc = subprocess.Popen(
        [browser(), "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--remote-debugging-port=0", f"--user-data-dir={profile}", "--window-size=1300,1000",
         "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        ws_url = None
        for line in proc.stderr:
            m = re.search(r"DevTools listening on (ws://\S+)", line)
            if m:
                ws_url = m.group(1)
                break
        if not ws_url:
            sys.exit("check_html: chromium did not start its DevTools endpoint")
        s = Session(ws_url)
        target = s.send("Target.createTarget", {"url": "about:blank"}, top=True)["targetId"]
        s.session = s.send("Target.attachToTarget", {"targetId": target, "flatten": True},
                           top=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            s.send(f"{domain}.enable")
        s.send("Emulation.setDeviceMetricsOverride",
               {"width": 1300, "height": 1000, "deviceScaleFactor": 1, "mobile": False})
        s.send("Page.navigate", {"url": url})
        s.wait("Page.loadEventFired")
        time.sleep(0.3)

        result = {}
        mode = sys.argv[3] if len(sys.argv) > 3 else "report"
        if mode == "causal":
            result["plots"] = s.eval("document.querySelectorAll('svg.plot').length")
            result["points"] = s.eval("document.querySelectorAll('svg.plot circle.pt').length")
            result["captions"] = s.eval(
                "[...document.querySelectorAll('figcaption')].map(e => e.textContent)")
            result["rank_rows"] = s.eval("document.querySelectorAll('table.rank tr:not(:first-child)').length")
            result["laid_out"] = s.eval(
                "[...document.querySelectorAll('svg.plot')].every(e => e.getBoundingClientRect().width > 100)")
        else:
            result["threads"] = s.eval(
                "[...document.querySelectorAll('#tl-names .thread')].map(e => e.textContent)")
            result["flame_nodes"] = int(s.eval("document.getElementById('flame').dataset.nodes") or 0)
            result["syscall_rows"] = s.eval("document.querySelectorAll('#syscalls tr').length - 1")
            # the GPU tables (shown only for a recording with GPU work)
            result["gpu_shown"] = s.eval("!document.getElementById('gpu-part').hidden")
            result["gpu_rows"] = s.eval(
                "Object.fromEntries(['gpu-commands', 'gpu-transfers', 'gpu-queues', 'gpu-calls',"
                " 'gpu-blocked'].map(id => [id, document.querySelectorAll('#' + id + ' tr').length - 1]))")
            # the widest frame two levels below the root: a real click on it
            pick = s.eval("""(() => {
                const box = document.getElementById('flame');
                let best = null;
                for (const [n, x, w, depth] of box._nodes)
                    if (depth === 2 && (!best || w > best.w)) best = {name: n.name, w, i: box._nodes.findIndex(e => e[0] === n)};
                if (!best) return null;
                const el = box.querySelector(".n[data-i='" + best.i + "']");
                el.scrollIntoView({block: 'center'});
                const r = el.getBoundingClientRect();
                return {name: best.name, x: r.left + Math.min(r.width / 2, 20), y: r.top + r.height / 2};
            })()""")
            result["clicked"] = pick and pick["name"]
            if pick:
                s.click(pick["x"], pick["y"])
                time.sleep(0.2)
            result["flame_root_after_click"] = s.eval("document.getElementById('flame').dataset.root")
            # the wheel over the timeline zooms in
            win = lambda: s.eval("(() => { const c = document.getElementById('tl-canvas');"
                                 " return Number(c.dataset.t1) - Number(c.dataset.t0); })()")
            result["window_before"] = win()
            r = s.eval("""(() => { const c = document.getElementById('tl-canvas');
                c.scrollIntoView({block: 'center'}); const b = c.getBoundingClientRect();
                return {x: b.left + b.width / 2, y: b.top + Math.min(b.height / 2, 10)}; })()""")
            s.send("Input.dispatchMouseEvent", {"type": "mouseWheel", "x": r["x"], "y": r["y"],
                                                "deltaX": 0, "deltaY": -400})
            time.sleep(0.2)
            result["window_after_wheel"] = win()
        s.eval("window.scrollTo(0, 0)")
        height = s.eval("document.documentElement.scrollHeight")
        s.send("Emulation.setDeviceMetricsOverride",
               {"width": 1300, "height": int(height), "deviceScaleFactor": 1, "mobile": False})
        time.sleep(0.2)
        png = s.send("Page.captureScreenshot", {"format": "png"})["data"]
        with open(shot, "wb") as f:
            f.write(base64.b64decode(png))

        # drain what the page said while it ran
        s.ws.settimeout(0.5)
        try:
            while True:
                s.events.append(json.loads(s.ws.recv()))
        except websocket.WebSocketTimeoutException:
            pass
        errors, requests = [], []
        for e in s.events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.exceptionThrown":
                errors.append(p["exceptionDetails"].get("text", "exception") + ": " +
                              str(p["exceptionDetails"].get("exception", {}).get("description", "")))
            elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                errors.append("console: " + " ".join(str(a.get("value", a.get("description")))
                                                     for a in p.get("args", [])))
            elif m == "Log.entryAdded" and p["entry"].get("level") == "error":
                errors.append("log: " + p["entry"].get("text", ""))
            elif m == "Network.requestWillBeSent":
                u = p["request"]["url"]
                if u != url and not u.startswith("data:"):
                    requests.append(u)
        result["errors"] = errors
        result["requests"] = requests
        print(json.dumps(result))
        sys.exit(1 if errors or requests else 0)
    finally:
        proc.kill()
        proc.wait()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()
