"""`boneyard.pyspiel.install()` (issue 36, 8): OpenSpiel's modules say
`import pyspiel`; after install() that import gives boneyard's module, and a
real OpenSpiel that is installed is never shadowed. Each case runs in a
child interpreter (sys.modules is process-wide)."""
import os
import subprocess
import sys
import textwrap

# A module written the way OpenSpiel's algorithms are: `import pyspiel` at
# the top, then pyspiel's names.
USES_PYSPIEL = textwrap.dedent("""
    import pyspiel

    def first_moves(game_string):
        game = pyspiel.load_game(game_string)
        state = game.new_initial_state()
        while state.is_chance_node():
            action, _ = state.chance_outcomes()[0]
            state.apply_action(action)
        return pyspiel, state.legal_actions()
""")


def run(tmp_path, code, fake_real_pyspiel=False):
    (tmp_path / "uses_pyspiel.py").write_text(USES_PYSPIEL)
    if fake_real_pyspiel:  # stands for OpenSpiel's installed extension
        (tmp_path / "pyspiel.py").write_text("REAL = True\n")
    env = dict(os.environ)
    paths = [os.path.abspath(p) for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path)] + paths)
    out = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=env,
                         cwd=tmp_path, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_without_install_import_pyspiel_fails(tmp_path):
    assert run(tmp_path, """
        import boneyard
        try:
            import uses_pyspiel
        except ImportError:
            print("no pyspiel")
    """) == "no pyspiel"


def test_install_lets_openspiel_style_modules_import_boneyard(tmp_path):
    assert run(tmp_path, """
        from boneyard import pyspiel
        assert pyspiel.install() is pyspiel and pyspiel.install() is pyspiel
        import uses_pyspiel
        module, legal = uses_pyspiel.first_moves("latin(single_hand=true)")
        assert module is pyspiel and legal
        print("ok")
    """) == "ok"


def test_a_real_openspiel_is_never_shadowed(tmp_path):
    assert run(tmp_path, """
        import sys
        from boneyard import pyspiel
        try:
            pyspiel.install()
        except ImportError as e:
            assert "does not shadow" in str(e), e
        assert "pyspiel" not in sys.modules
        import pyspiel as real
        assert real.REAL
        print("kept")
    """, fake_real_pyspiel=True) == "kept"
