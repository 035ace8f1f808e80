"""A fetched page's bytes as text for the model: HTML to Markdown (markdownify) or plain text, or as sent.

Blocking and CPU-bound on a large page: the tool calls `page_text` off the event loop.
"""

from __future__ import annotations

import codecs
import re
from typing import Literal

from vtcode.core.web_content import HTML_TYPES, charset, media_type

PageFormat = Literal["markdown", "text", "raw"]
# Parts of a page that are not its text.
_DROPPED = ("script", "style", "noscript", "template", "iframe", "svg", "canvas")
_BLANK_RUNS = re.compile(r"\n[ \t]*(?:\n[ \t]*){2,}")


def decode(body: bytes, content_type: str) -> str:
    """`body` as text: in the charset the header names (UTF-8 when none or unknown), bad bytes replaced."""
    name = charset(content_type) or "utf-8"
    try:
        codecs.lookup(name)
    except LookupError:
        name = "utf-8"
    return body.decode(name, errors="replace")


def page_text(body: bytes, content_type: str, form: PageFormat) -> str:
    """The text of a page in `form`; only HTML is converted, other text types come as they are."""
    if form == "raw" or media_type(content_type) not in HTML_TYPES:
        return decode(body, content_type)
    # Imported on the first HTML page: most sessions never fetch one.
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(body, "html.parser", from_encoding=charset(content_type))
    for tag in soup(_DROPPED):
        tag.decompose()
    if form == "text":
        text = soup.get_text("\n")
    else:
        from markdownify import MarkdownConverter

        text = MarkdownConverter(heading_style="ATX", bullets="-", escape_misc=False).convert_soup(soup)
    return _BLANK_RUNS.sub("\n\n", text).strip() + "\n"
