"""The compact grammar: what it accepts is exactly compact JSON of the schema's shape."""

from __future__ import annotations

from assistant.llm.grammar import compact_grammar
from memory.extraction.llm_extractor import SCHEMA


def test_grammar_lists_every_property_in_order_and_every_enum_value() -> None:
    g = compact_grammar(SCHEMA)
    rules = dict(line.split(" ::= ", 1) for line in g.splitlines())
    assert rules["root"] == '"{" "\\"facts\\":" root-facts "}"'
    item = rules["root-facts-item"]
    order = [item.index(f'\\"{k}\\":') for k in ("turn", "subject", "relation", "object", "op", "since")]
    assert order == sorted(order)
    assert '"\\"lives_in\\""' in rules["root-facts-item-relation"]
    assert rules["root-facts-item-since"] == "string | null"
    assert " ws " in rules["root-facts"] and "ws" in rules  # whitespace only between array items


def test_unsupported_schema_is_refused() -> None:
    import pytest

    with pytest.raises(ValueError, match="not supported"):
        compact_grammar({"type": "object", "properties": {"x": {"type": "tuple"}}})
