"""The MicroPython lane: the portable tests and every portable module, on real MicroPython."""

import pytest

import mplane

MODULES = sorted(p.stem for p in mplane.PORTABLE_TESTS.glob("test_*.py"))


@pytest.mark.parametrize("module", MODULES)
def test_portable_module_on_micropython(module):
    result = mplane.run(tests_dir=mplane.PORTABLE_TESTS, module=module)
    assert not result.failed, result.report()
    assert not result.empty, "{} has no test_* functions".format(module)
    assert result.passed, result.output


def test_every_portable_module_imports_on_micropython():
    names = mplane.portable_modules()
    assert "shared_rules._compat" in names
    result = mplane.run(imports=names)
    assert not result.failed, result.report()
    assert sorted(result.passed) == sorted(names)
