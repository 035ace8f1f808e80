"""Match shell command lines against approval rules, one simple command at a time.

A rule is either a word prefix (`git status` matches `git status -s`, not `git statusx`) or, when it
contains `*`, `?` or `[`, a glob matched with `fnmatch` against a whole simple command. A command line is
split into simple commands at `;`, `&`, `&&`, `|`, `||`, newlines and parentheses; the bodies of `$(...)`,
backticks and `<(...)`/`>(...)` are simple commands of their own. An allow rule must match every simple
command; a line that cannot be parsed matches no allow rule. A redirection that writes a file (anything
but `/dev/null` or a file-descriptor copy) is not covered by allow rules either: allowing `echo` is not
allowing `echo x > ~/.bashrc`.

Deny rules are a guard rail against mistakes, not a security boundary (an OS sandbox is that):
they match anywhere in a simple command's words (so `sudo rm -rf /` and `xargs rm -rf` hit `rm -rf`),
inside the command strings of `sh -c` / `bash -lc` (parsed like any line), also in a quote-blind split
of the line, and globs also against the whole line. Options are compared by meaning, not spelling: a
rule's options must all be present, in any order, bundled or not, short or long (`rm -rf` also denies
`rm -fr`, `rm -r -f`, `rm -Rf`, `rm --recursive --force`).
"""

from __future__ import annotations

import functools
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase

_OPERATOR_CHARS = "();<>&|"
# Quoted or escaped operator characters are swapped for private-use characters before shlex sees the
# line, so a token made only of operator characters is always a real operator (`";"` is a word).
_NEUTRAL = {ch: chr(0xE000 + i) for i, ch in enumerate(_OPERATOR_CHARS)}
_RESTORE = str.maketrans({v: k for k, v in _NEUTRAL.items()})
# Stands for the output of a command substitution; matches no rule word.
_SUBSTITUTION = "\x00"
_RESERVED = re.compile("[\x00\ue000-\ue006]")

_INPUT_REDIRECTS = {"<", "<<<"}
_FD_COPIES = {">&", "<&"}
_OUTPUT_REDIRECTS = {">", ">>", "&>", "&>>", ">|", "<>"}
_GLOB_CHARS = "*?["
_LENIENT_SPLIT = re.compile(r"[;&|()\n`]|\$\(")


class _Unparsable(Exception):
    """The line is not something we can split with confidence."""


@dataclass(frozen=True)
class SimpleCommand:
    """One simple command: its words (quotes removed) and whether it redirects output to a file."""

    words: tuple[str, ...]
    writes_files: bool = False

    @property
    def text(self) -> str:
        """The words joined by single spaces, what glob rules are matched against."""
        return " ".join(self.words)


@dataclass(frozen=True)
class AllowMatch:
    """The allow rules that cover every simple command of a line, or why none do."""

    rules: tuple[str, ...] = ()
    blocker: str = ""

    @property
    def allowed(self) -> bool:
        """Whether every simple command matched an allow rule."""
        return bool(self.rules)


def split_command(line: str) -> tuple[SimpleCommand, ...] | None:
    """Every simple command in a shell command line, substitutions included; None if unparsable."""
    if _RESERVED.search(line):
        return None
    try:
        return tuple(_split(line))
    except _Unparsable:
        return None


def match_allow(line: str, rules: Sequence[str]) -> AllowMatch:
    """Which allow rules cover `line`: all of its simple commands must match one.

    When none do, `blocker` says why in a clause for a reason sentence; it is empty when the line is
    one simple command that simply matches no rule.
    """
    commands = split_command(line)
    if commands is None:
        return AllowMatch(blocker="it does not parse as a shell command line, so no allow rule can match")
    if not commands:
        return AllowMatch(blocker="it is empty")
    subject = "its part `{}`" if len(commands) > 1 else "it"
    used: dict[str, None] = {}
    for command in commands:
        if command.writes_files:
            return AllowMatch(
                blocker=subject.format(_shown(command))
                + " redirects output to a file, which allow rules do not cover"
            )
        rule = next((r for r in rules if _allow_matches(r, command)), None)
        if rule is None:
            if len(commands) == 1:
                return AllowMatch()
            return AllowMatch(
                blocker=subject.format(_shown(command))
                + " matches no allow rule, and every part of a compound command must"
            )
        used[rule] = None
    return AllowMatch(rules=tuple(used))


def match_deny(line: str, rules: Sequence[str], *, _depth: int = 0) -> str | None:
    """The first deny rule that matches anywhere in `line`, or None."""
    parsed = split_command(line) or ()
    if _depth < _MAX_SHELL_DEPTH:
        # `sh -c "rm -rf x"`: the string is a command line of its own, parsed with quotes intact.
        for command in parsed:
            for inner in _shell_strings(command):
                found = match_deny(inner, rules, _depth=_depth + 1)
                if found is not None:
                    return found
    commands = (*parsed, *_lenient_split(line))
    # `git -C dir push` and `git -c k=v push` run `git push`: deny rules see through git's global options.
    commands = (*commands, *(_without_git_options(c) for c in commands if c.words[:1] == ("git",)))
    whole = " ".join(line.split())
    for rule in rules:
        if _is_glob(rule) and fnmatchcase(whole, _glob(rule)):
            return rule
        if any(_deny_matches(rule, command) for command in commands):
            return rule
    return None


# Commands that run the command named by their arguments.
_WRAPPERS = frozenset({"sudo", "doas", "env", "nohup", "nice", "time", "exec", "command", "builtin", "xargs"})


def dynamic_program(line: str) -> str | None:
    """A simple command of `line` whose program is computed when it runs (`$(echo rm) -rf`), shown.

    Deny rules compare program names, which such a command does not have until the shell expands it.
    """
    for command in split_command(line) or ():
        words = list(command.words)
        while words and (
            words[0].rsplit("/", 1)[-1] in _WRAPPERS or words[0].startswith("-") or "=" in words[0]
        ):
            words.pop(0)
        if words and (_SUBSTITUTION in words[0] or "$" in words[0]):
            return _shown(command)
    return None


def _allow_matches(rule: str, command: SimpleCommand) -> bool:
    if _is_glob(rule):
        return fnmatchcase(command.text, _glob(rule))
    words = _rule_words(rule)
    return bool(words) and command.words[: len(words)] == words


def _deny_matches(rule: str, command: SimpleCommand) -> bool:
    if _is_glob(rule):
        return fnmatchcase(command.text, _glob(rule))
    words = _rule_words(rule)
    if not words:
        return False
    # `/bin/rm` runs the same program as `rm`.
    seen = tuple(w.rsplit("/", 1)[-1] if i == 0 else w for i, w in enumerate(words))
    for start in range(len(command.words) - len(words) + 1):
        window = command.words[start : start + len(words)]
        candidate = (window[0].rsplit("/", 1)[-1], *window[1:])
        if candidate == seen:
            return True
    return _options_match(seen, command.words)


def _options_match(rule: tuple[str, ...], words: tuple[str, ...]) -> bool:
    """Whether some run of `rule[0]` in `words` has all the rule's options and its other words in order.

    Options compare by meaning (`-rf` = `-fr` = `-r -f` = `--recursive --force` for rm); the rule's
    other words must begin the command's own (`git push --force` hits `git push origin --force`).
    """
    program, rest = rule[0], rule[1:]
    wanted, wanted_words = _options(program, rest)
    if not wanted:
        return False  # plain words: the exact window above already decided
    for start, word in enumerate(words):
        if word.rsplit("/", 1)[-1] != program:
            continue
        present, present_words = _options(program, words[start + 1 :])
        if wanted <= present and present_words[: len(wanted_words)] == wanted_words:
            return True
    return False


# Long and short spellings of the same option, for the commands deny rules name most.
_SYNONYMS: dict[str, dict[str, str]] = {
    "rm": {"-R": "-r", "--recursive": "-r", "--force": "-f", "--dir": "-d"},
    "chmod": {"--recursive": "-R"},
    "chown": {"--recursive": "-R"},
    "chgrp": {"--recursive": "-R"},
    "git": {"--force": "-f"},
    "cp": {"--recursive": "-r", "-R": "-r", "--force": "-f"},
}


def _options(program: str, words: Sequence[str]) -> tuple[frozenset[str], tuple[str, ...]]:
    """The options among `words` (bundles split, synonyms unified) and the other words, in order.

    GNU programs accept any unambiguous prefix of a long option (`rm --recur --forc`): a prefix that
    names exactly one long option of the table counts as that option.
    """
    synonyms = _SYNONYMS.get(program, {})
    longs = [name for name in synonyms if name.startswith("--")]
    options: set[str] = set()
    others: list[str] = []
    for index, word in enumerate(words):
        if word == "--":
            others.extend(words[index + 1 :])
            break
        if word.startswith("--"):
            name = word.partition("=")[0]
            prefixed = [long for long in longs if long.startswith(name)] if len(name) > 2 else []
            options.add(synonyms.get(name) or (synonyms[prefixed[0]] if len(prefixed) == 1 else name))
        elif word.startswith("-") and len(word) > 1:
            options.update(synonyms.get(f"-{ch}", f"-{ch}") for ch in word[1:])
        else:
            others.append(word)
    return frozenset(options), tuple(others)


_SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "fish"})
_MAX_SHELL_DEPTH = 3


def _shell_strings(command: SimpleCommand) -> list[str]:
    """The command strings a simple command hands to a shell with `-c` (`bash -lc '...'` too)."""
    strings: list[str] = []
    words = command.words
    for index, word in enumerate(words[:-1]):
        if word.rsplit("/", 1)[-1] not in _SHELLS:
            continue
        for position in range(index + 1, len(words) - 1):
            option = words[position]
            if not option.startswith("-") or option == "--":
                break
            if not option.startswith("--") and "c" in option[1:]:
                strings.append(words[position + 1])
                break
    return strings


def _is_glob(rule: str) -> bool:
    return any(ch in rule for ch in _GLOB_CHARS)


def _glob(rule: str) -> str:
    return " ".join(rule.split())


# Every tool call matches every configured rule; the rules come from config, so they are few and fixed.
@functools.lru_cache(maxsize=1024)
def _rule_words(rule: str) -> tuple[str, ...]:
    try:
        return tuple(shlex.split(rule))
    except ValueError:
        return tuple(rule.split())


def _shown(command: SimpleCommand) -> str:
    return command.text.replace(_SUBSTITUTION, "$(...)")


def _split(line: str) -> list[SimpleCommand]:
    outer, bodies = _lift_substitutions(line)
    commands = _split_simple(outer)
    for body in bodies:
        commands.extend(_split(body))
    return commands


def _lift_substitutions(line: str) -> tuple[str, list[str]]:
    """Replace substitutions by a placeholder and collect their bodies; neutralize quoted operators."""
    out: list[str] = []
    bodies: list[str] = []
    quote = ""
    i = 0
    while i < len(line):
        ch = line[i]
        if quote == "'":
            if ch == "'":
                quote = ""
            out.append(_NEUTRAL.get(ch, ch))
            i += 1
        elif ch == "\\":
            nxt = line[i + 1 : i + 2]
            if nxt != "\n":  # backslash-newline is a line continuation: both vanish
                out.append("\\" + _NEUTRAL.get(nxt, nxt))
            i += 2
        elif ch == "`":
            end = _closing_backtick(line, i + 1)
            bodies.append(line[i + 1 : end].replace("\\`", "`"))
            out.append(_SUBSTITUTION)
            i = end + 1
        elif line.startswith("$(", i) or (not quote and line[i : i + 2] in ("<(", ">(")):
            end = _closing_paren(line, i + 2)
            bodies.append(line[i + 2 : end])
            out.append(_SUBSTITUTION)
            i = end + 1
        else:
            if ch == '"':
                quote = "" if quote else '"'
            elif ch == "'" and not quote:
                quote = "'"
            elif ch == "\n" and not quote:
                ch = ";"
            elif quote:
                ch = _NEUTRAL.get(ch, ch)
            out.append(ch)
            i += 1
    if quote:
        raise _Unparsable
    return "".join(out), bodies


def _closing_backtick(line: str, start: int) -> int:
    i = start
    while i < len(line):
        if line[i] == "\\":
            i += 2
            continue
        if line[i] == "`":
            return i
        i += 1
    raise _Unparsable


def _closing_paren(line: str, start: int) -> int:
    """Index of the `)` closing a `(` just before `start`, skipping quotes and nested substitutions."""
    depth = 1
    quote = ""
    i = start
    while i < len(line):
        ch = line[i]
        if quote == "'":
            if ch == "'":
                quote = ""
        elif ch == "\\":
            i += 1
        elif ch == "`":
            i = _closing_backtick(line, i + 1)
        elif line.startswith("$(", i):
            i = _closing_paren(line, i + 2)
        elif ch == '"':
            quote = "" if quote else '"'
        elif ch == "'" and not quote:
            quote = "'"
        elif not quote and ch == "(":
            depth += 1
        elif not quote and ch == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise _Unparsable


def _split_simple(text: str) -> list[SimpleCommand]:
    lexer = shlex.shlex(text, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    # `#` only starts a comment at the start of a word in a shell; treating it as a word is stricter.
    lexer.commenters = ""
    try:
        tokens = list(lexer)
    except ValueError as err:
        raise _Unparsable from err
    commands: list[SimpleCommand] = []
    words: list[str] = []
    writes = False
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if not _is_operator(token):
            words.append(token.translate(_RESTORE))
            i += 1
            continue
        if "<" not in token and ">" not in token:
            if words:
                commands.append(SimpleCommand(tuple(words), writes))
            words, writes = [], False
            i += 1
            continue
        target = tokens[i + 1] if i + 1 < len(tokens) else ""
        if not target or _is_operator(target):
            raise _Unparsable
        writes = writes or _writes_file(token, target.translate(_RESTORE))
        i += 2
    if words:
        commands.append(SimpleCommand(tuple(words), writes))
    return commands


def _is_operator(token: str) -> bool:
    return bool(token) and all(ch in _OPERATOR_CHARS for ch in token)


def _writes_file(operator: str, target: str) -> bool:
    if operator in _INPUT_REDIRECTS:
        return False
    if operator in _FD_COPIES:
        return not (target.isdigit() or target == "-")
    if operator in _OUTPUT_REDIRECTS:
        return target != "/dev/null"
    # Here-documents and operator runs we do not model (`<<`, `>;`) get no benefit of the doubt.
    raise _Unparsable


def _lenient_split(line: str) -> list[SimpleCommand]:
    """A quote-blind split for deny rules: catches commands hidden in `bash -c "..."` strings."""
    pieces = _LENIENT_SPLIT.split(line.replace("\\", "").replace('"', "").replace("'", ""))
    return [SimpleCommand(tuple(piece.split())) for piece in pieces if piece.split()]


# git options that come before the subcommand and take a separate value.
_GIT_OPTIONS_WITH_VALUE = frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path"})


def _without_git_options(command: SimpleCommand) -> SimpleCommand:
    """`git` followed directly by its subcommand, the global options before it dropped."""
    words = list(command.words[1:])
    while words and words[0].startswith("-"):
        option = words.pop(0)
        if option in _GIT_OPTIONS_WITH_VALUE and words:
            words.pop(0)
    return SimpleCommand(("git", *words))
