#!/usr/bin/env python3
"""A match: ismcts (seats 0 and 2) against random (seats 1 and 3) in Latin
dominoes, one hand per game, played from Python; then the same match in C++
with boneyard.arena.

    PYTHONPATH=build/python /usr/bin/python3 python/examples/random_vs_ismcts.py
"""
import boneyard

game = boneyard.load_game("latin", {"single_hand": True})
games = 20
total = [0.0] * game.num_players()
for g in range(games):
    bots = [boneyard.make_bot(game, "ismcts" if p % 2 == 0 else "random", p, iterations=200, seed=100 * g + p)
            for p in range(game.num_players())]
    state = game.new_initial_state(seed=g)
    while not state.is_terminal():
        p = state.current_player()
        state.apply_action(bots[p].step(state))
    for p, r in enumerate(state.returns()):
        total[p] += r
print(f"{games} hands from Python, mean points per seat (ismcts at 0 and 2):",
      [round(t / games, 2) for t in total])

r = boneyard.arena(game, ["ismcts", "random"], games=200, seed=1, threads=2, iterations=200)
print(f"{r['games']} hands in C++ (arena, {r['seconds']:.1f} s), mean points per seat:",
      [round(x, 2) for x in r["returns"]])
