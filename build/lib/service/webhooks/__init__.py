"""Webhooks: a submission's (or a batch's) ``callback_url`` gets a signed POST once its verdict
is committed.

The sandbox worker never posts. ``lifecycle.finish`` writes a row of the outbox
(``outbox``) in the transaction that commits the verdict, then sends a hint to the ``webhooks``
queue; the webhook worker (``judge webhook-worker``, no Docker socket) posts it (``delivery``),
signs it (``signing``), refuses non-public addresses at submission and at delivery time
(``addresses``), records each attempt and retries with back-off for a day; its sweep
(``sweeper``) sends whatever is due again, so a lost message costs a delay, never a delivery.
Each user and each destination host has a few attempts in flight at most (``claims``,
``inflight``), so a receiver that never answers holds a few threads, never everyone's.
"""
