"""The catalog's budget: longest descriptions shortened first, then skills left out; output is stable."""

from __future__ import annotations

from vtcode.core.definitions.catalog import BUDGET_CAP, BUDGET_FLOOR, build_catalog, catalog_budget
from vtcode.core.definitions.model import Definition


def _skill(name: str, description: str, *, invocable: bool = True) -> Definition:
    return Definition(
        name=name, description=description, body="", path=f"/s/{name}/SKILL.md", folder=f"/s/{name}",
        kind="skill", scope="project", source=".agents/skills", model_invocable=invocable,
    )  # fmt: skip


def test_the_budget_is_a_share_of_the_window_between_floor_and_cap() -> None:
    assert catalog_budget(8_000) == BUDGET_FLOOR
    assert catalog_budget(50_000) == 4_000
    assert catalog_budget(1_000_000) == BUDGET_CAP


def test_longest_descriptions_are_shortened_first() -> None:
    skills = [_skill("b-long", "word " * 300), _skill("a-short", "Short one.")]
    catalog = build_catalog(skills, 1_000)
    assert len(catalog.text) <= 1_000
    assert catalog.listed == ("a-short", "b-long")
    assert catalog.truncated == ("b-long",)
    assert "<description>Short one.</description>" in catalog.text


def test_200_skills_fit_the_budget_and_the_rest_is_counted() -> None:
    skills = [_skill(f"s-{n:03d}", f"Does thing {n} " + "x" * 200) for n in range(200)]
    catalog = build_catalog(list(reversed(skills)), 8_000)
    assert len(catalog.text) <= 8_000
    assert len(catalog.listed) + len(catalog.omitted) == 200
    assert catalog.omitted == tuple(f"s-{n:03d}" for n in range(200 - len(catalog.omitted), 200))
    assert build_catalog(skills, 8_000) == catalog  # input order does not matter


def test_hidden_skills_and_no_skills_give_no_catalog() -> None:
    assert build_catalog([_skill("x", "d", invocable=False)], 8_000).text == ""
    assert build_catalog([], 8_000).text == ""


def test_descriptions_are_escaped() -> None:
    text = build_catalog([_skill("x", "a <b> & c")], 8_000).text
    assert "<description>a &lt;b&gt; &amp; c</description>" in text
