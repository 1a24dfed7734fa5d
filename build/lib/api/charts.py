"""Charts drawn on the server as SVG, so pages need no charting script and no outside service.

Every text that goes into the SVG (titles, labels, test names an author chose) is escaped. The
chart is an image to assistive technology: ``role="img"``, a ``<title>`` and ``<desc>`` it is
labelled by, and an ``aria-label`` that reads every bar's label and value. Colours are SVG
presentation attributes, which a strict ``style-src`` policy allows.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

ROW = 26  # pixels per bar
LABEL_WIDTH = 230
BAR_WIDTH = 320
VALUE_WIDTH = 60
TOP = 34
MAX_LABEL = 34  # characters shown of a label; the aria-label keeps it whole


def _text(value: object) -> str:
    return escape(str(value), quote=True)


def _shortened(label: str) -> str:
    return label if len(label) <= MAX_LABEL else label[: MAX_LABEL - 1] + "…"


def bar_chart(title: str, labels: Sequence[str], values: Sequence[int], *, unit: str = "",
              empty: str = "no data yet") -> str:
    """A horizontal bar chart: one labelled bar per value, longest bar = largest value."""
    if len(labels) != len(values):
        raise ValueError("a bar chart needs as many labels as values")
    width = LABEL_WIDTH + BAR_WIDTH + VALUE_WIDTH
    height = TOP + max(1, len(values)) * ROW + 10
    suffix = f" {unit}" if unit else ""
    summary = "; ".join(f"{label}: {value}{suffix}" for label, value in zip(labels, values, strict=True))
    description = f"{title}. {summary}" if values else f"{title}. {empty}"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-labelledby="chart-title chart-desc" '
        f'aria-label="{_text(description)}" font-family="sans-serif" font-size="13">',
        f'<title id="chart-title">{_text(title)}</title>',
        f'<desc id="chart-desc">{_text(summary or empty)}</desc>',
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
        f'<text x="8" y="20" font-size="15" font-weight="bold" fill="#1a1a1a">{_text(title)}</text>',
    ]
    if not values:
        parts.append(f'<text x="8" y="{TOP + 16}" fill="#444444">{_text(empty)}</text>')
    largest = max(values, default=0) or 1
    for index, (label, value) in enumerate(zip(labels, values, strict=True)):
        y = TOP + index * ROW
        length = round(BAR_WIDTH * value / largest)
        parts += [
            f'<text x="{LABEL_WIDTH - 8}" y="{y + 17}" text-anchor="end" fill="#1a1a1a">'
            f"<title>{_text(label)}</title>{_text(_shortened(label))}</text>",
            f'<rect x="{LABEL_WIDTH}" y="{y + 4}" width="{length}" height="{ROW - 8}" fill="#2f5d9e"/>',
            f'<text x="{LABEL_WIDTH + length + 6}" y="{y + 17}" fill="#1a1a1a">{_text(value)}</text>',
        ]
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
