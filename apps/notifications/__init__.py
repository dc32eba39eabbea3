"""Notifications to operators and drivers: every legal deadline that concerns them, in the portal and by e-mail.

One row per event (a unique key, so never twice), written in the transaction of the change that causes it; the
e-mail goes through the jobs outbox (sent after commit, retried). Event hooks live in ``events.py`` (called by
one line from the services where the events happen); time-driven ones in ``sweep.py`` (a daily sweep step).
"""
