#!/usr/bin/env python3
"""Figures for the Python package (docs/python.md, Figures). No assertions.

    PYTHONPATH=build/python /usr/bin/python3 python/bench/bench.py [--exe build/boneyard] [--seconds 3]
"""
import argparse
import json
import os
import random
import subprocess
import time

import numpy as np

import boneyard


def python_loop_hands(seconds, explicit_chance=False):
    # With explicit chance the same loop picks chance outcomes from
    # legal_actions() too: uniform, as chance_outcomes() gives them for latin.
    game = boneyard.load_game("latin", {"single_hand": True})
    rng = random.Random(1)
    choice = rng.choice
    hands = moves = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(100):
            seed += 1
            s = game.new_initial_state(seed, explicit_chance=explicit_chance)
            legal, apply, term = s.legal_actions, s.apply_action, s.is_terminal
            while not term():
                apply(choice(legal()))
                moves += 1
            hands += 1
    dt = time.perf_counter() - start
    return hands / dt, moves / dt


def env_loop_hands(seconds):
    # PettingZoo's AEC loop over DominoEnv, a random legal action from the
    # observation's action mask.
    env = boneyard.DominoEnv("latin", {"single_hand": True})
    choice = random.Random(1).choice
    hands = steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=hands)
        last, step = env.last, env.step
        for _ in env.agent_iter():
            obs, reward, term, trunc, info = last()
            step(None if term or trunc else int(choice(obs["action_mask"].nonzero()[0])))
            steps += 1
        hands += 1
    dt = time.perf_counter() - start
    return hands / dt, steps / dt


def infostate_calls(seconds):
    # The perfect-recall string is built on request, by replaying the hand.
    game = boneyard.load_game("latin", {"single_hand": True})
    s = game.new_initial_state(3)
    for _ in range(12):
        s.apply_action(s.legal_actions()[0])
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(1000):
            s.information_state_string(0)
        n += 1000
    return n / (time.perf_counter() - start)


def tensor_calls(seconds):
    game = boneyard.load_game("latin", {"single_hand": True})
    s = game.new_initial_state(3)
    for a in s.legal_actions()[:1]:
        s.apply_action(a)
    buf = np.zeros(game.observation_tensor_shape(), np.float32)
    into = s.observation_tensor_into
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(10000):
            into(0, buf)
        n += 10000
    into_rate = n / (time.perf_counter() - start)
    n = 0
    start = time.perf_counter()
    obs = s.observation_tensor
    while time.perf_counter() - start < seconds:
        for _ in range(10000):
            obs(0)
        n += 10000
    return into_rate, n / (time.perf_counter() - start)


def playouts(exe, seconds):
    game = boneyard.load_game("latin")
    boneyard.random_playouts(game, 20000, 1, 1)  # warm
    n = 50000
    while True:
        r = boneyard.random_playouts(game, n, 1, 1)
        if r["seconds"] >= seconds or n > 10**8:
            break
        n *= 2
    py_rate = (r["hands_per_second"], r["hands"] / r["cpu_seconds"])
    cli_rate = None
    if exe:
        out = subprocess.run([exe, "bench", "latin", "--seconds", str(seconds), "--json"], capture_output=True,
                             text=True, check=True).stdout
        cli = json.loads(out)
        cli_rate = (cli[0]["hands_per_second"], cli[0]["hands_per_second_cpu"])
    return py_rate, cli_rate


def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--exe", default=os.path.join(here, "..", "..", "build", "boneyard"))
    ap.add_argument("--seconds", type=float, default=3.0)
    a = ap.parse_args()
    exe = a.exe if os.path.exists(a.exe) else None
    h, m = python_loop_hands(a.seconds)
    print(f"latin single_hand=on random hands from a Python loop: {h:,.0f} hands/s ({m:,.0f} moves/s), one core")
    h, m = python_loop_hands(a.seconds, explicit_chance=True)
    print(f"  the same with explicit_chance=True: {h:,.0f} hands/s ({m:,.0f} steps/s, chance nodes included)")
    h, m = env_loop_hands(a.seconds)
    print(f"DominoEnv (PettingZoo AEC loop), latin single_hand=on: {h:,.0f} hands/s ({m:,.0f} agent steps/s)")
    print(f"information_state_string after 12 moves: {infostate_calls(a.seconds):,.0f} calls/s")
    into, alloc = tensor_calls(a.seconds)
    print(f"observation_tensor_into (preallocated buffer): {into:,.0f} calls/s; observation_tensor (new array): "
          f"{alloc:,.0f} calls/s")
    py_rate, cli = playouts(exe, a.seconds)
    print(f"random_playouts(latin, threads=1): {py_rate[0]:,.0f} hands/s wall, {py_rate[1]:,.0f} per CPU second")
    if cli is not None:
        print(f"boneyard bench latin --seconds {a.seconds}: {cli[0]:,.0f} hands/s wall, {cli[1]:,.0f} per CPU second; "
              f"Python/CLI: {py_rate[0] / cli[0]:.2f} wall, {py_rate[1] / cli[1]:.2f} CPU")


if __name__ == "__main__":
    main()
