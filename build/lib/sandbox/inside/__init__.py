"""What runs inside the sandbox container, and nothing else: the image bakes this whole folder.

Every module here imports only the standard library and ``sandbox.inside`` itself (tests/test_layers.py
holds that), since the image has no other package. The host imports ``protocol`` and ``codec`` from
here too: one definition of the protocol for both sides.
"""
