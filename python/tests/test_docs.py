"""docs/python.md's generated table is what the code gives (sizes, action
counts, tensor value ranges): regenerate it with
python/tools/docs_tables.py --write when this fails."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tools"))

import docs_tables  # noqa: E402


def test_generated_table_matches_the_code():
    with open(docs_tables.DOCS, encoding="utf-8") as f:
        text = f.read()
    assert docs_tables.replace(text, docs_tables.table()) == text, \
        "docs/python.md's table is stale: run python/tools/docs_tables.py --write"


def test_table_has_every_game_and_the_right_latin_sizes():
    import boneyard

    table = docs_tables.table()
    for name in boneyard.registered_games():
        assert f"| {name} |" in table
    one = boneyard.load_game("latin", {"single_hand": True})
    g = boneyard.load_game("latin")
    assert (f"| latin | 4 | 92 | {g.observation_tensor_size()} | {one.information_state_tensor_size()} "
            f"| {g.information_state_tensor_size()} |") in table
