"""The service around the judging engine: database, queue, workers, users and their submissions.

The engine (``judge`` outside this package, and ``sandbox``) judges one submission against one
problem and knows nothing of what is here; ``tests/test_layers.py`` holds it to that.
"""
