"""Bad input gets the package's own words; batches are bounded and stop on
Ctrl-C (issue 36, items 12 and 14; docs/python.md, Errors and Batches)."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import boneyard


def test_one_game_however_its_options_are_spelled():
    a = boneyard.load_game("latin", {"single_hand": "true"})
    b = boneyard.load_game("latin(single_hand=true)")
    c = boneyard.load_game("latin", {"single_hand": True})
    assert a == b == c
    assert hash(a) == hash(b) == hash(c)
    assert str(a) == str(b) == "latin(single_hand=on)"
    assert a != boneyard.load_game("latin")
    assert len({a, b, c}) == 1


@pytest.mark.parametrize("name, params, words", [
    ("latin(single_hand=true,single_hand=false)", None, "given twice"),
    ("latin(single_hand=true)", {"single_hand": False}, "both in the game string and in params"),
    ("latin(target=)", None, "has no value"),
    ("latin(target=100,)", None, "empty option"),
    ("latin(=3)", None, "no name"),
    ("latin", {"target": ""}, "has no value"),
    ("latin", {"target": None}, "must be a str, int or bool"),
    ("latin", ["target"], "params must be a dict"),
    (None, None, "must be a str"),
])
def test_bad_game_strings_and_params_are_refused(name, params, words):
    with pytest.raises(boneyard.BoneyardError, match=words):
        boneyard.load_game(name, params)


def _message(f):
    try:
        f()
    except Exception as e:  # noqa: BLE001 (the type is checked by the caller)
        return type(e), str(e)
    return None, ""


def test_wrong_argument_types_are_worded_by_the_package():
    game = boneyard.load_game("latin(single_hand=true)")
    state = game.new_initial_state(1)
    calls = [
        lambda: state.apply_action(None),
        lambda: state.apply_action("6-4"),
        lambda: state.apply_actions(None),
        lambda: state.action_to_string(None, 1),
        lambda: state.string_to_action(0, None),
        lambda: state.is_player_acting("0"),
        lambda: state.legal_actions("0"),
        lambda: state.observation_tensor_into(0, None),
        lambda: state.information_state_tensor_into(0, [0.0]),
        lambda: state.view_json(None),
        lambda: game.deserialize_state(None),
        lambda: boneyard.make_bot(game, "greedy", None),
        lambda: boneyard.make_bot(game, None, 0),
        lambda: boneyard.arena(game, None),
        lambda: boneyard.arena(game, [None]),
        lambda: boneyard.random_playouts(game, None),
        lambda: boneyard.game_info(None),
    ]
    for f in calls:
        kind, text = _message(f)
        assert kind is not None and issubclass(kind, ValueError), (kind, text)
        assert "incompatible function arguments" not in text and "NoneType" not in text, text
    assert state.apply_action(np.int64(state.legal_actions()[0])) is None  # numpy ints are ints


@pytest.mark.parametrize("kwargs", [
    {"threads": 0}, {"threads": -1}, {"threads": 100000}, {"threads": 10**6}, {"threads": 10**30},
])
def test_playout_threads_out_of_range_are_refused(kwargs):
    with pytest.raises(ValueError, match=r"threads must be 1\.\.256"):
        boneyard.random_playouts("latin", 10, **kwargs)


@pytest.mark.parametrize("kwargs, words", [
    ({"threads": 10**6}, r"threads must be 1\.\.256"),
    ({"threads": 0}, r"threads must be 1\.\.256"),
    ({"bot_threads": 10**6}, r"bot_threads must be 1\.\.256"),
    ({"bot_threads": 0}, r"bot_threads must be 1\.\.256"),
])
def test_arena_threads_out_of_range_are_refused(kwargs, words):
    with pytest.raises(ValueError, match=words):
        boneyard.arena("latin", ["random"], games=2, **kwargs)


@pytest.mark.parametrize("ms", [float("inf"), 1e300, float("nan"), 1e12, -1])
def test_think_ms_is_bounded_as_the_protocol_bounds_it(ms):
    # inf, 1e300 and nan turned the search off (values all 0); 1e12 never returned.
    game = boneyard.load_game("latin")
    with pytest.raises(ValueError, match=r"think_ms must be a number of milliseconds from 0 to 3600000"):
        boneyard.make_bot(game, "ismcts", 0, think_ms=ms)


def test_numpy_integers_are_seeds_and_actions_but_floats_are_not():
    game = boneyard.load_game("latin(single_hand=true)")
    assert game.new_initial_state(np.int64(3)).serialize() == game.new_initial_state(3).serialize()
    env = boneyard.DominoEnv("latin(single_hand=true)")
    env.reset(seed=np.int64(3))
    legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
    # int(1.5) played action 1: a float or a string is no action.
    for bad in (float(legal[0]) + 0.5, str(legal[0])):
        with pytest.raises(TypeError, match="an action is an int"):
            env.step(bad)
    env.step(np.int64(legal[0]))


def test_a_level_plays_its_own_budget_and_refuses_another():
    # The protocol refuses a budget with a level; Python dropped it silently.
    game = boneyard.load_game("latin")
    with pytest.raises(boneyard.BoneyardError, match=r"'strong' plays the level's own budget.*name a bot \(ismcts\)"):
        boneyard.make_bot(game, "strong", 0, iterations=50)
    with pytest.raises(boneyard.BoneyardError, match="the level's own budget"):
        boneyard.make_bot(game, "expert", 0, think_ms=5)
    assert boneyard.make_bot(game, "strong", 1).name == "ismcts"  # the level alone: its own bot and budget


def test_bot_threads_out_of_range_are_refused():
    game = boneyard.load_game("latin")
    with pytest.raises(ValueError, match=r"threads must be 1\.\.256"):
        boneyard.make_bot(game, "pimc", 0, threads=10**6)
    assert boneyard.random_playouts("latin", 10, threads=boneyard.MAX_THREADS)["hands"] == 10


BATCH_INTERRUPTED = textwrap.dedent("""
    import os, signal, sys, threading
    import boneyard
    try:
        threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT)).start()
        if sys.argv[1] == "playouts":
            boneyard.random_playouts("latin", 10**15, threads=2)
        else:
            boneyard.arena("latin", ["greedy"], games=10**12, threads=2)
    except KeyboardInterrupt:
        print("KeyboardInterrupt")
""")


@pytest.mark.parametrize("batch", ["playouts", "arena"])
def test_ctrl_c_stops_a_batch_with_keyboard_interrupt(batch):
    # In a child: without the check the batch would run for days, and the
    # test would end at the timeout.
    out = subprocess.run([sys.executable, "-c", BATCH_INTERRUPTED, batch], capture_output=True, text=True,
                         timeout=120, env=dict(os.environ))
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "KeyboardInterrupt"
