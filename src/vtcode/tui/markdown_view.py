"""Markdown as answers show it: Rich's rendering with numbered items that keep their dots and code
lines that keep their indentation when they wrap."""

from __future__ import annotations

from typing import ClassVar

from rich.console import Console, ConsoleOptions, RenderResult
from rich.markdown import CodeBlock, ListItem, Markdown, MarkdownElement
from rich.padding import Padding
from rich.segment import Segment
from rich.syntax import Syntax
from rich.text import Text


class _NumberedItem(ListItem):
    """`1. item`, as written (Rich drops the dot)."""

    def render_number(
        self, console: Console, options: ConsoleOptions, number: int, last_number: int
    ) -> RenderResult:
        """The item's lines, the first after its number and a dot, the rest indented under it."""
        width = len(str(last_number)) + 3
        lines = console.render_lines(
            self.elements, options.update(width=options.max_width - width), style=self.style
        )
        style = console.get_style("markdown.item.number", default="none")
        for index, line in enumerate(lines):
            yield Segment(f"{number}.".rjust(width - 1) + " " if index == 0 else " " * width, style)
            yield from line
            yield Segment("\n")


class _IndentedCode(CodeBlock):
    """A code block whose wrapped lines continue under their own indentation (Rich starts them at 0)."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """Highlighted code, each source line wrapped to the width with a hanging indent."""
        code = str(self.text).rstrip()
        highlighted = Syntax(code, self.lexer_name, theme=self.theme).highlight(code)
        width = max(8, options.max_width - 2)
        out = Text()
        for number, line in enumerate(highlighted.split("\n", allow_blank=True)):
            indent = len(line.plain) - len(line.plain.lstrip(" "))
            # Deep indentation would leave no room: continue at most halfway across.
            hang = min(indent, width // 2)
            pieces = line.wrap(console, width - hang) if len(line) > width else [line]
            for index, piece in enumerate(pieces):
                if number or index:
                    out.append("\n")
                if index:
                    out.append(" " * hang)
                out.append_text(piece)
        yield Padding(out, (0, 1))


class AnswerMarkdown(Markdown):
    """Rich's Markdown with the two fixes above."""

    elements: ClassVar[dict[str, type[MarkdownElement]]] = {
        **Markdown.elements,
        "list_item_open": _NumberedItem,
        "fence": _IndentedCode,
        "code_block": _IndentedCode,
    }
