"""The app's stylesheet (kept in Python so a one-file build needs no data files)."""

CSS = """
Screen {
    layout: vertical;
}
#transcript {
    height: 1fr;
    padding: 0 1;
    scrollbar-size-vertical: 1;
}
#transcript > * {
    margin: 0 0 1 0;
}
.user {
    text-style: bold;
    color: $accent;
}
.answer {
    margin: 0;
    padding: 0;
}
.answer > * {
    margin: 0 0 0 0;
}
.reasoning {
    border: none;
    padding: 0;
    color: $text-muted;
}
.reasoning Contents {
    padding: 0 0 0 2;
}
.card {
    padding: 0 0 0 2;
}
.error {
    color: $error;
}
.warning {
    color: $warning;
}
.notice {
    color: $text-muted;
}
#pending {
    height: auto;
    max-height: 6;
    border-top: solid $secondary;
    padding: 0 1;
}
#slash-menu {
    height: auto;
    max-height: 10;
    border: none;
    border-top: solid $secondary;
    padding: 0 1;
    background: $surface;
    text-wrap: nowrap;
    text-overflow: ellipsis;
}
#composer {
    height: auto;
    min-height: 3;
    max-height: 10;
    border: round $primary;
    padding: 0 1;
}
#composer:focus {
    border: round $accent;
}
#status {
    height: 1;
    background: $panel;
}
ApprovalScreen, TextScreen, JobsScreen, SessionPicker {
    align: center middle;
}
#approval {
    width: 90%;
    max-width: 110;
    height: auto;
    max-height: 100%;
    border: thick $warning;
    background: $surface;
    padding: 1 2;
}
#approval-preview {
    height: auto;
    max-height: 20;
    border-top: solid $secondary;
    margin: 1 0 0 0;
}
#approval-keys {
    dock: bottom;
    margin: 1 0 0 0;
}
.panel {
    width: 94%;
    height: 90%;
    border: round $primary;
    background: $surface;
    padding: 0 1;
}
#setup-text {
    padding: 1 2;
}
"""
