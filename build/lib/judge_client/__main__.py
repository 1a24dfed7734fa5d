"""``python -m judge_client``: the same as the ``judge-client`` command."""

from judge_client.cli import main

main()
