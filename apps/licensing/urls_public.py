"""The public verification URL printed as a QR code on every permit, reserved now.

The public page itself is a later issue (apps.public); it must mount VERIFY_ROUTE at the site root under the
namespace "public" with the name "verify-token", so `reverse(VERIFY_ROUTE_NAME, args=[token])` equals
`verify_path(token)` and every permit already printed keeps verifying.
"""

from __future__ import annotations

VERIFY_ROUTE = "verificar/<str:qr_token>/"
VERIFY_ROUTE_NAME = "public:verify-token"


def verify_path(qr_token: str) -> str:
    """The site-relative path of a permit's public verification page."""
    return "/" + VERIFY_ROUTE.replace("<str:qr_token>", qr_token)
