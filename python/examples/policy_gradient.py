#!/usr/bin/env python3
"""A linear softmax policy trained by policy gradient (REINFORCE), numpy
only, on one hand of two-player "two-draw" dominoes against a random
opponent; it should beat random clearly after a few thousand hands.

    PYTHONPATH=build/python /usr/bin/python3 python/examples/policy_gradient.py [--episodes 6000]
"""
import argparse
import random

import numpy as np

import boneyard

ap = argparse.ArgumentParser()
ap.add_argument("--game", default="two-draw")
ap.add_argument("--episodes", type=int, default=8000)
ap.add_argument("--eval", type=int, default=2000)
ap.add_argument("--lr", type=float, default=0.1)
args = ap.parse_args()

game = boneyard.load_game(args.game, {"single_hand": True})
A = game.num_distinct_actions()
D = game.observation_tensor_size()
rng = np.random.default_rng(0)
W = np.zeros((A, D + 1), np.float32)  # per action: weights on the observation and a bias
buf = np.zeros(D + 1, np.float32)
buf[D] = 1.0  # the bias input
scale = 50.0  # points to a reward of about 1


def policy(state, p, learn):
    state.observation_tensor_into(p, buf[:D])
    legal = state.legal_actions(p)
    logits = W[legal] @ buf
    probs = np.exp(logits - logits.max())
    probs /= probs.sum()
    k = rng.choice(len(legal), p=probs)
    if learn is not None:
        learn.append((legal, probs, k, buf.copy()))
    return legal[k]


def play(seed, learner, learn=None):
    state = game.new_initial_state(seed)
    other = random.Random(seed)
    while not state.is_terminal():
        p = state.current_player()
        if p == learner:
            state.apply_action(policy(state, p, learn))
        else:
            state.apply_action(other.choice(state.legal_actions()))
    return state.returns()[learner]


def evaluate(n, seed0):
    r = np.array([play(seed0 + i, i % 2) for i in range(n)])
    return r.mean(), r.std() / np.sqrt(n), np.mean(r > 0)


before = evaluate(args.eval, 10**6)
baseline = 0.0
for ep in range(args.episodes):
    steps = []
    learner = ep % 2
    r = play(ep, learner, steps) / scale
    adv = r - baseline
    baseline += 0.01 * (r - baseline)
    for legal, probs, k, x in steps:
        grad = -probs
        grad[k] += 1.0
        W[legal] += args.lr * adv * np.outer(grad, x)
after = evaluate(args.eval, 10**6)
print(f"{args.game}, one hand against random, {args.eval} hands (random vs random: 0 points, about 50% won):")
print(f"  before training: {before[0]:+.2f} +- {2 * before[1]:.2f} points per hand, {100 * before[2]:.1f}% won")
print(f"  after {args.episodes} hands: {after[0]:+.2f} +- {2 * after[1]:.2f} points per hand, {100 * after[2]:.1f}% won")
