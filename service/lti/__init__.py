"""LTI 1.3 with LTI Advantage, the tool's side, by the 1EdTech specifications: a platform (an LMS)
launches the judge, a launch signs its user in to the course and problem it points to, deep
linking places problems, assignments and tracks in the platform's course, grades go back to the
platform's line items (AGS) and its roster comes in (NRPS).

JOSE (signatures, keys) is ``joserfc``'s; HTTP is ``httpx``'s, bounded (``service.lti.remote``).
Every module here is synchronous: the routes run it on their thread pool, the webhook worker in
its tasks, never on the event loop.
"""
