"""Lenient frontmatter of skill, command and agent definition files."""

from __future__ import annotations

from vtcode.core.definitions.frontmatter import ParsedFrontmatter, flag_field, list_field, parse_frontmatter


def test_an_unquoted_colon_in_a_description_still_loads() -> None:
    parsed = parse_frontmatter("---\nname: pdf\ndescription: Use when: PDFs\n---\nBody\n")
    assert parsed == ParsedFrontmatter({"name": "pdf", "description": "Use when: PDFs"}, "Body\n", (), True)


def test_valid_yaml_keeps_its_types() -> None:
    parsed = parse_frontmatter("---\nname: x\nuser-invocable: false\npaths:\n  - a/**\n---\nB")
    assert parsed.fields == {"name": "x", "user-invocable": False, "paths": ["a/**"]}
    assert flag_field(parsed.fields, "user-invocable", True) is False
    assert list_field(parsed.fields, "paths") == ("a/**",)


def test_unreadable_frontmatter_is_a_diagnostic_not_an_exception() -> None:
    parsed = parse_frontmatter("---\n{[ unbalanced\n---\nBody")
    assert parsed.fields == {}
    assert parsed.body == "Body"
    assert len(parsed.diagnostics) == 1
    assert "not valid YAML" in parsed.diagnostics[0]


def test_a_list_or_scalar_block_is_reported() -> None:
    assert parse_frontmatter("---\n- a\n- b\n---\n").diagnostics == (
        "frontmatter is not a mapping of keys to values",
    )


def test_no_frontmatter_means_the_whole_text_is_the_body() -> None:
    assert parse_frontmatter("# Title\n") == ParsedFrontmatter({}, "# Title\n")
    assert parse_frontmatter("---\nname: x\n").fields == {}  # unclosed: ordinary text


def test_line_reader_takes_dash_lists_and_inline_lists() -> None:
    parsed = parse_frontmatter("---\ndescription: a: b\ntools: [Read, Grep]\npaths:\n- src/**\n---\n")
    assert parsed.fields == {"description": "a: b", "tools": ["Read", "Grep"], "paths": ["src/**"]}


def test_plain_lines_read_without_yaml_match_what_yaml_reads() -> None:
    import yaml

    blocks = [
        "name: a\ndescription: Does a thing, then another.\nuser-invocable: false\n",
        "name: b\ndescription: Fix (see docs) & more\nlicense: MIT\n",
        "name: c\nversion: 1.2\n",  # a number: left to YAML
        "name: d\nmetadata:\n  k: v\n",  # nested: left to YAML
        "name: e\ndescription: 'quoted'\n",
    ]
    for block in blocks:
        parsed = parse_frontmatter(f"---\n{block}---\nbody")
        assert parsed.fields == yaml.safe_load(block), block


def test_a_colon_in_a_plain_value_reads_as_the_lenient_reader_reads_it() -> None:
    from vtcode.core.definitions.frontmatter import read_lines

    block = "name: pdf\ndescription: Use when: PDFs arrive\n"
    assert parse_frontmatter(f"---\n{block}---\n").fields == read_lines(block)
