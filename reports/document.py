"""The report as data (sections of paragraphs, tables and figures) and its two
renderings: one self-contained HTML file (inline CSS, figures as base64 PNG, no
external URL of any kind) and Markdown that links the PNG files."""

from __future__ import annotations

import base64
import html
import io
import json
import re
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from reports.style import style


@dataclass
class Paragraph:
    text: str
    kind: str = "text"
    """``text``; ``reading`` (the plain-language reading of a result); ``note`` (a caveat
    or a missing piece, shown muted); ``subhead`` (a heading inside a section)."""


@dataclass
class Table:
    frame: pd.DataFrame
    """What is shown: text cells, already formatted."""
    caption: str = ""
    data: str | None = None
    """Name of the Parquet file (under ``data/``) that holds the numbers behind it."""


@dataclass
class Figure:
    name: str
    png: bytes
    caption: str = ""
    alt: str = ""
    data: str | None = None


Block = Paragraph | Table | Figure


@dataclass
class Section:
    id: str
    title: str
    blocks: list[Block] = field(default_factory=list)

    def add(self, block: Block) -> Block:
        self.blocks.append(block)
        return block

    def text(self, text: str) -> None:
        self.add(Paragraph(text))

    def reading(self, text: str) -> None:
        self.add(Paragraph(text, "reading"))

    def note(self, text: str) -> None:
        self.add(Paragraph(text, "note"))

    def subhead(self, text: str) -> None:
        self.add(Paragraph(text, "subhead"))


@dataclass
class GameReport:
    game: str
    title: str
    sections: list[Section]
    provenance: dict[str, Any]
    seconds: float


@dataclass
class Document:
    title: str
    intro: str
    games: list[GameReport]
    provenance: dict[str, Any]


def png_bytes(ax_or_fig) -> bytes:
    """Render a figure (or the figure of an axes) to PNG bytes in the report style.
    The PNG carries no software or date stamp, so equal figures give equal bytes."""
    fig = getattr(ax_or_fig, "figure", ax_or_fig)
    buf = io.BytesIO()
    with style():
        fig.savefig(buf, format="png", metadata={"Software": None})
    return buf.getvalue()


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


CSS = """
:root { --fg: #1f2328; --muted: #59636e; --line: #d8dee4; --accent: #0072B2;
        --soft: #f3f6f9; --reading: #eef6fc; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { margin: 0; color: var(--fg); background: #fff; line-height: 1.55;
       font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
header, main, footer { max-width: 980px; margin: 0 auto; padding: 0 16px; }
header { padding-top: 24px; }
h1 { font-size: 1.7rem; margin: 0 0 .3rem; line-height: 1.25; }
h2 { font-size: 1.4rem; margin: 2.2rem 0 .6rem; padding-bottom: .3rem;
     border-bottom: 2px solid var(--accent); }
h3 { font-size: 1.12rem; margin: 1.8rem 0 .5rem; }
h4 { font-size: 1rem; margin: 1.3rem 0 .4rem; }
p { margin: .5rem 0 .8rem; }
.lead { color: var(--muted); }
nav { background: var(--soft); border-radius: 8px; padding: 10px 14px; margin: 14px 0; }
nav ul { margin: .2rem 0; padding-left: 1.2rem; }
nav a { color: var(--accent); text-decoration: none; }
.reading { background: var(--reading); border-left: 4px solid var(--accent);
           padding: 8px 12px; border-radius: 0 6px 6px 0; }
.note { color: var(--muted); font-size: .92rem; font-style: italic; }
figure { margin: 1rem 0 1.4rem; }
figure img { display: block; width: 100%; max-width: 820px; height: auto; }
figcaption { color: var(--muted); font-size: .9rem; margin-top: .3rem; }
.table-wrap { overflow-x: auto; -webkit-overflow-scrolling: touch; margin: .6rem 0 1.2rem;
              border: 1px solid var(--line); border-radius: 6px; }
table { border-collapse: collapse; width: 100%; font-size: .88rem;
        font-variant-numeric: tabular-nums; }
caption { caption-side: top; text-align: left; padding: 6px 10px; color: var(--muted);
          font-size: .88rem; }
th, td { padding: 5px 10px; border-bottom: 1px solid var(--line); text-align: left;
         white-space: nowrap; vertical-align: top; }
td.wrap { white-space: normal; min-width: 16rem; }
th { background: var(--soft); font-weight: 600; }
td.num, th.num { text-align: right; }
tr:last-child td { border-bottom: 0; }
footer { margin-top: 3rem; padding-top: 1rem; padding-bottom: 2rem; border-top: 1px solid var(--line);
         color: var(--muted); font-size: .9rem; }
footer dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: .4rem 0; }
footer dt { font-weight: 600; }
footer dd { margin: 0; overflow-wrap: anywhere; }
pre { background: var(--soft); padding: 10px; border-radius: 6px; overflow-x: auto;
      font-size: .8rem; white-space: pre; }
code { font-size: .9em; overflow-wrap: anywhere; }
@media (max-width: 600px) {
  body { font-size: 15px; }
  h1 { font-size: 1.35rem; }
  h2 { font-size: 1.2rem; }
  header, main, footer { padding: 0 10px; }
  footer dl { grid-template-columns: 1fr; }
}
"""

_NUMERIC = re.compile(r"^[+\-−]?[\d,]*\.?\d+(e[+\-]?\d+)?%?( \[.*\])?$")


def _numeric_columns(frame: pd.DataFrame) -> list[bool]:
    """Columns whose every cell is a number (or a number with its interval)."""
    return [len(frame) > 0 and bool(frame[c].map(lambda v: bool(_NUMERIC.match(v.strip()))).all())
            for c in frame.columns]


def _cell_class(value: str, numeric: bool) -> str:
    if numeric:
        return ' class="num"'
    return ' class="wrap"' if len(value) > 60 else ""


def _html_table(t: Table) -> str:
    e = html.escape
    frame = t.frame.astype(str)
    numeric = _numeric_columns(frame)
    head = "".join(("<th class=\"num\">" if k else "<th>") + f"{e(str(c))}</th>"
                   for c, k in zip(frame.columns, numeric))
    rows = "\n".join("<tr>" + "".join(f"<td{_cell_class(v, k)}>{e(v)}</td>"
                                      for v, k in zip(row, numeric)) + "</tr>"
                     for row in frame.itertuples(index=False))
    caption = e(t.caption) + (f" <span class=\"note\">(data: data/{e(t.data)}.parquet)</span>"
                              if t.data else "")
    return ('<div class="table-wrap"><table>'
            + (f"<caption>{caption}</caption>" if caption else "")
            + f"<thead><tr>{head}</tr></thead>\n<tbody>\n{rows}\n</tbody></table></div>")


def _html_figure(f: Figure) -> str:
    e = html.escape
    data = base64.b64encode(f.png).decode("ascii")
    cap = e(f.caption) + (f" (figure: figures/{e(f.name)}.png" +
                          (f"; data: data/{e(f.data)}.parquet" if f.data else "") + ")")
    return (f'<figure id="fig-{e(f.name)}"><img src="data:image/png;base64,{data}" '
            f'alt="{e(f.alt or f.caption)}" loading="lazy"><figcaption>{cap}</figcaption></figure>')


def _html_block(b: Block) -> str:
    if isinstance(b, Paragraph):
        if b.kind == "subhead":
            return f"<h4>{html.escape(b.text)}</h4>"
        cls = {"reading": ' class="reading"', "note": ' class="note"'}.get(b.kind, "")
        return f"<p{cls}>{html.escape(b.text)}</p>"
    if isinstance(b, Table):
        return _html_table(b)
    return _html_figure(b)


def _provenance_html(p: dict[str, Any]) -> str:
    e = html.escape
    items = [("reproduce", f"<code>{e(p['command'])}</code>"),
             ("seed", e(str(p["seed"]))),
             ("matches (-n)", e(", ".join(f"{g}: {n:,}" for g, n in p["n"].items()))),
             ("bidlab version", e(p["version"])),
             ("started (UTC)", e(p["started"])),
             ("run time", e(f"{p['seconds']:.1f} s"
                            + "".join(f"; {g} {s:.1f} s" for g, s in p["game_seconds"].items()))),
             ("software", e(", ".join(f"{k} {v}" for k, v in p["software"].items()))),
             ("machine", e(p["machine"])),
             ("results digest", f"<code>{e(p['digest'])}</code>")]
    dl = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in items)
    full = e(json.dumps(p, indent=1, default=str))
    return (f"<h2 id=\"provenance\">Provenance</h2><p>Everything below is what this report "
            f"depends on: the same command with the same bidlab version reproduces every "
            f"number (the matches are a pure function of the seed and the match index; run "
            f"times differ).</p><dl>{dl}</dl><details><summary>Every run: rules, strategies "
            f"with parameters, sizes (JSON)</summary><pre>{full}</pre></details>")


def to_html(doc: Document) -> str:
    e = html.escape
    toc = "".join(
        f'<li><a href="#{e(g.game)}">{e(g.game)}</a>: '
        + ", ".join(f'<a href="#{e(g.game)}-{e(s.id)}">{e(s.title)}</a>' for s in g.sections)
        + "</li>" for g in doc.games)
    body = []
    for g in doc.games:
        body.append(f'<section id="{e(g.game)}"><h2>{e(g.game)}: {e(g.title)}</h2>')
        for s in g.sections:
            body.append(f'<section id="{e(g.game)}-{e(s.id)}"><h3>{e(s.title)}</h3>')
            body.extend(_html_block(b) for b in s.blocks)
            body.append("</section>")
        body.append("</section>")
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="bidlab {e(doc.provenance.get('version', ''))}">
<title>{e(doc.title)}</title>
<style>{CSS}</style>
</head>
<body>
<header>
<h1>{e(doc.title)}</h1>
<p class="lead">{e(doc.intro)}</p>
<nav><strong>Contents</strong><ul>{toc}<li><a href="#provenance">Provenance</a></li></ul></nav>
</header>
<main>
{chr(10).join(body)}
</main>
<footer>
{_provenance_html(doc.provenance)}
</footer>
</body>
</html>
"""


def _md_escape(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _md_table(t: Table) -> str:
    frame = t.frame.astype(str)
    lines = []
    if t.caption or t.data:
        lines.append(f"*{_md_escape(t.caption)}*" + (f" (data: `data/{t.data}.parquet`)" if t.data else ""))
        lines.append("")
    cols = [_md_escape(c) for c in frame.columns]
    lines.append("| " + " | ".join(cols) + " |")
    align = ["---:" if k else "---" for k in _numeric_columns(frame)]
    lines.append("| " + " | ".join(align) + " |")
    for row in frame.itertuples(index=False):
        lines.append("| " + " | ".join(_md_escape(v) for v in row) + " |")
    return "\n".join(lines)


def _md_block(b: Block) -> str:
    if isinstance(b, Paragraph):
        if b.kind == "subhead":
            return f"#### {b.text}"
        if b.kind == "reading":
            return f"> **Reading:** {b.text}"
        if b.kind == "note":
            return f"*{b.text}*"
        return b.text
    if isinstance(b, Table):
        return _md_table(b)
    return (f"![{b.alt or b.caption}](figures/{b.name}.png)\n\n*{b.caption}*"
            + (f" (data: `data/{b.data}.parquet`)" if b.data else ""))


def to_markdown(doc: Document) -> str:
    out = [f"# {doc.title}", "", doc.intro, "", "Contents:", ""]
    for g in doc.games:
        out += [f"- {g.game}: " + ", ".join(s.title for s in g.sections)]
    out += ["- Provenance", ""]
    for g in doc.games:
        out += [f"## {g.game}: {g.title}", ""]
        for s in g.sections:
            out += [f"### {s.title}", ""]
            for b in s.blocks:
                out += [_md_block(b), ""]
    p = doc.provenance
    out += ["## Provenance", "",
            "The same command with the same bidlab version reproduces every number (matches "
            "are a pure function of the seed and the match index; run times differ).", "",
            f"- reproduce: `{p['command']}`",
            f"- seed: {p['seed']}",
            "- matches (-n): " + ", ".join(f"{g}: {n:,}" for g, n in p["n"].items()),
            f"- bidlab version: {p['version']}",
            f"- started (UTC): {p['started']}",
            f"- run time: {p['seconds']:.1f} s"
            + "".join(f"; {g} {s:.1f} s" for g, s in p["game_seconds"].items()),
            "- software: " + ", ".join(f"{k} {v}" for k, v in p["software"].items()),
            f"- machine: {p['machine']}",
            f"- results digest: `{p['digest']}`",
            "- every run (rules, strategies with parameters, sizes): `provenance.json`", ""]
    return "\n".join(out)
