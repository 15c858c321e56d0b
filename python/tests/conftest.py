"""The package under test is the build tree's (PYTHONPATH=build/python),
or an installed one."""
