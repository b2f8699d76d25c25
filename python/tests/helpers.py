"""Shared by the pytest modules."""


def random_step(state, rng):
    """One random move (a joint one at a simultaneous node)."""
    if state.is_simultaneous_node():
        acts = []
        for p in range(state.num_players()):
            la = state.legal_actions(p)
            acts.append(rng.choice(la) if la else -1)
        state.apply_actions(acts)
    else:
        state.apply_action(rng.choice(state.legal_actions()))
