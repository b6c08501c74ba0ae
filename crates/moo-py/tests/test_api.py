"""The package's surface: the stubs match the module, every public name has a docstring, and
every error is a MooError."""

import ast
import inspect
import pathlib

import moo
import moo._moo as native

STUB = pathlib.Path(moo.__file__).with_name("_moo.pyi")


def stub_names():
    tree = ast.parse(STUB.read_text())
    names, members = set(), {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names.add(node.name)
            members[node.name] = {
                n.name for n in node.body if isinstance(n, ast.FunctionDef)
                and (not n.name.startswith("_") or n.name in {"_repr_html_", "__len__", "__iter__"})
            }
        elif isinstance(node, ast.FunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
    return names, members


ALIASES = {"RulesLike", "Answer", "History", "Codes", "Progress"}


def test_the_stubs_name_exactly_what_the_module_has():
    names, members = stub_names()
    runtime = {n for n in dir(native) if not n.startswith("_") or n == "__version__"}
    assert names - ALIASES == runtime
    assert set(moo.__all__) == runtime
    for cls, stubbed in members.items():
        if issubclass(getattr(native, cls), Exception):
            continue
        actual = {
            n for n in dir(getattr(native, cls))
            if not n.startswith("_") or n in {"_repr_html_", "__len__", "__iter__"}
        }
        assert stubbed - {"__init__", "__eq__", "__hash__", "__lt__", "__le__", "__gt__", "__ge__"} == actual, cls


def test_every_public_name_has_a_docstring():
    for name in moo.__all__:
        obj = getattr(moo, name)
        if isinstance(obj, str):
            continue
        assert inspect.getdoc(obj), name
        if inspect.isclass(obj) and not issubclass(obj, Exception):
            for member, value in vars(obj).items():
                if not member.startswith("_"):
                    assert inspect.getdoc(value), f"{name}.{member}"


def test_every_error_is_a_moo_error():
    errors = [getattr(moo, n) for n in moo.__all__ if n.endswith("Error")]
    assert len(errors) == 13
    for error in errors:
        assert issubclass(error, moo.MooError) and issubclass(error, Exception)


def test_objects_print_usefully():
    assert repr(moo.strategies()[0]).startswith("StrategyInfo(name='simple'")
    assert repr(moo.Strategy("knuth", "mastermind")).startswith("Strategy('knuth', Rules(")
    assert repr(moo.hint("mastermind")).startswith("Hint(remaining=1296, advice=Advice(guess=")
    assert repr(moo.build_tree("mastermind").stats).startswith("TreeStats(secrets=1296, total=5625")
    assert repr(moo.Advisor()) == "Advisor()"


def test_the_book_page_runs_as_written():
    import doctest

    from conftest import REPO

    page = REPO / "docs" / "src" / "python.md"
    result = doctest.testfile(
        str(page), module_relative=False, optionflags=doctest.NORMALIZE_WHITESPACE
    )
    assert result.attempted > 20 and result.failed == 0
