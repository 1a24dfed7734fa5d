"""A command-line client for learners and scripts: fetch a problem, submit a file, follow its
verdict, list submissions, all through the judge's public HTTP API.

It imports nothing of the service (judge, api, sandbox): it is what anyone could write against
``/api/v1``, and it must keep working from a machine that has only this package and its three
libraries (httpx, typer, rich). ``tests/test_layers.py`` holds it to that.
"""
