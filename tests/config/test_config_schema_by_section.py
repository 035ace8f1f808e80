"""A layer is checked one top-level table at a time, against the same schema as the whole `Settings`."""

from __future__ import annotations

import msgspec.inspect as mi
import pytest

from vtcode.config import validation
from vtcode.config.schema import Settings
from vtcode.config.validation import validate_layer
from vtcode.protocol.errors import ConfigError


def test_each_table_has_the_schema_it_has_inside_settings() -> None:
    whole = mi.type_info(Settings)
    assert isinstance(whole, mi.StructType)
    assert {f.encode_name for f in whole.fields} == set(validation._sections())
    for field in whole.fields:
        assert validation._section_type(field.encode_name) == field.type, field.encode_name


def test_a_layer_that_sets_one_table_walks_only_that_table() -> None:
    validation._section_type.cache_clear()
    validation._settings_type.cache_clear()
    validate_layer({"network": {"max_retries": 0}}, source="-c")
    assert validation._section_type.cache_info().currsize == 1
    assert validation._settings_type.cache_info().currsize == 0


def test_mistakes_are_still_named_with_suggestions_from_the_whole_schema() -> None:
    with pytest.raises(
        ConfigError, match=r"-c:network\.max_retrys: unknown key, did you mean network\.max_retries\?"
    ):
        validate_layer({"network": {"max_retrys": 0}}, source="-c")
    with pytest.raises(ConfigError, match=r"-c:netwrk: unknown key, did you mean network\?"):
        validate_layer({"netwrk": {"max_retries": 0}}, source="-c")
    with pytest.raises(ConfigError, match=r"-c:network\.max_retries: got"):
        validate_layer({"network": {"max_retries": "x"}}, source="-c")
