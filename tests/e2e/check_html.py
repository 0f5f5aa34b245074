#!/usr/bin/env python3
"""Checks one kerndiff HTML report as written and as Chromium loaded it.

usage: check_html.py PAGE.html DOM.html CHROMIUM.log SHOT.png CHART_ID...
- the file is self-contained: no script, no external reference (src=, href=, url(), @import);
- Chromium reported no script error or failed load (its console log);
- the dumped DOM holds an <svg> with every CHART_ID, each with a <title> and two non-empty
  axis labels (<text class="label">);
- the screenshot is a PNG.
Prints one line per problem and exits 1 when there is any."""
import re
import sys
from html.parser import HTMLParser


class Charts(HTMLParser):
    def __init__(self):
        super().__init__()
        self.charts = {}      # id -> {"title": bool, "labels": [text]}
        self.current = None
        self.in_label = False
        self.in_title = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "svg" and "chart" in (a.get("class") or "").split():
            self.current = a.get("id")
            self.charts[self.current] = {"title": False, "labels": []}
        elif self.current and tag == "title":
            self.in_title = True
        elif self.current and tag == "text" and a.get("class") == "label":
            self.in_label = True
            self.charts[self.current]["labels"].append("")

    def handle_endtag(self, tag):
        if tag == "svg":
            self.current = None
        self.in_label = self.in_label and tag != "text"
        self.in_title = self.in_title and tag != "title"

    def handle_data(self, data):
        if self.current and self.in_title and data.strip():
            self.charts[self.current]["title"] = True
        if self.current and self.in_label:
            self.charts[self.current]["labels"][-1] += data


def main():
    page, dom, log, shot, *ids = sys.argv[1:]
    problems = []
    source = open(page, encoding="utf-8").read()
    for pattern in (r"<script", r"\bsrc\s*=", r"\bhref\s*=", r"url\(", r"@import"):
        if re.search(pattern, source, re.I):
            problems.append(f"{page}: not self-contained: /{pattern}/")
    for line in open(log, encoding="utf-8", errors="replace"):
        if re.search(r"Uncaught|CONSOLE\(\d+\).*[Ee]rror|net::ERR_", line):
            problems.append(f"chromium: {line.strip()}")
    parser = Charts()
    parser.feed(open(dom, encoding="utf-8").read())
    for chart in ids:
        found = parser.charts.get(chart)
        if not found:
            problems.append(f"no <svg id={chart}> in the loaded page")
        elif not found["title"] or len(found["labels"]) != 2 or not all(t.strip() for t in found["labels"]):
            problems.append(f"{chart}: wants a title and two axis labels, has {found}")
    with open(shot, "rb") as f:
        if f.read(8) != b"\x89PNG\r\n\x1a\n":
            problems.append(f"{shot}: not a PNG")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
