"""`[pricing."MODEL"]` belongs to the user file; budgets are `[agent]` keys checked like any other."""

from __future__ import annotations

from pathlib import Path

import pytest

from vtcode.config.loader import load_settings
from vtcode.core.pricing import Price, PriceTier
from vtcode.protocol.errors import ConfigError


def _files(tmp_path: Path, *, user: str = "", workspace: str = "") -> dict[str, str]:
    (tmp_path / "vthome").mkdir()
    (tmp_path / "ws").mkdir()
    (tmp_path / "vthome" / "vtcode.toml").write_text(user)
    (tmp_path / "ws" / "vtcode.toml").write_text(workspace)
    return {"HOME": str(tmp_path / "home"), "VTCODE_HOME": str(tmp_path / "vthome")}


def test_the_user_file_prices_a_model_and_a_workspace_file_cannot(tmp_path: Path) -> None:
    env = _files(
        tmp_path,
        user='[pricing."house-model"]\ninput = 1.5\noutput = 6\ncache_read = 0.15\n',
        workspace='[pricing."gpt-5"]\ninput = 0\noutput = 0\n',
    )
    loaded = load_settings(workspace=tmp_path / "ws", env=env, overrides=[], flags={})
    assert loaded.settings.pricing == {"house-model": Price(input=1.5, output=6.0, cache_read=0.15)}
    assert loaded.warnings == (
        f"{tmp_path / 'ws' / 'vtcode.toml'}:pricing.gpt-5.input: ignored: a workspace config cannot set the "
        "prices budgets count; set [pricing] in $VTCODE_HOME/vtcode.toml",
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('[pricing."m"]\ninput = -1\noutput = 1\n', "pricing.m.input"),
        ('[pricing."m"]\ninput = 1\noutput = 1\ncache = 2\n', "pricing.m.cache"),
        ('[pricing."m".long_context]\ninput = "x"\n', "pricing.m.long_context.input"),
        ("[agent]\nmax_budget_usd = 0\n", "agent.max_budget_usd"),
        ("[agent]\nmax_tokens_total = -5\n", "agent.max_tokens_total"),
    ],
)
def test_bad_prices_and_budgets_name_their_key(tmp_path: Path, text: str, expected: str) -> None:
    env = _files(tmp_path, user=text)
    with pytest.raises(ConfigError) as caught:
        load_settings(workspace=tmp_path / "ws", env=env, overrides=[], flags={})
    assert expected in caught.value.message


def test_a_long_context_tier_is_a_table_of_its_own(tmp_path: Path) -> None:
    env = _files(
        tmp_path,
        user='[pricing."m"]\ninput = 1\noutput = 2\n[pricing."m".long_context]\nabove_input_tokens = 1000\n'
        "input = 3\noutput = 4\n",
    )
    loaded = load_settings(workspace=tmp_path / "ws", env=env, overrides=[], flags={})
    assert loaded.settings.pricing["m"] == Price(
        input=1.0, output=2.0, long_context=PriceTier(above_input_tokens=1000, input=3.0, output=4.0)
    )
