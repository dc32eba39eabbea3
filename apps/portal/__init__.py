"""The operator and driver portal: the people licensed by the prefeitura sign in and see only their own records.

Public calls for other apps:
- ``services.portal_account_create`` — staff invites an operator, driver or attendant (creates the login).
- ``selectors.PortalScope`` — the records a portal account may see; anything else answers 404.
Every write in the portal goes through the back office's services (registry, licensing, dueprocess) with the
portal user as the actor, so the audit log shows who did it.
"""
