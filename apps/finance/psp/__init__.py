"""The municipality's PSP (its bank) through the Banco Central's standard API Pix.

- config: where the PSP is and how Outorga authenticates to it, per municipality, from the environment
  (docs/pix.md lists the variables). A municipality without them keeps the static BR Code.
- client: the few calls Outorga makes (OAuth2 client credentials, ``cobv`` create/revise/read, the list of
  received PIX, a refund), over mTLS when a certificate is configured. Errors are PspError, never a hang.
"""
