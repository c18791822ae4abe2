# Checking a delivery before trusting it (spec §5 rule 8, shared decisions §9), as the TypeScript SDK's
# verifyWebhook does. By default the Standard Webhooks headers (https://www.standardwebhooks.com):
# `webhook-signature` holds space-separated `v1,` and the base64 HMAC-SHA256 of
# `{webhook-id}.{webhook-timestamp}.{body}`, and `webhook-timestamp` must be near the receiver's clock, so a
# captured delivery cannot be replayed later. `X-Service-Signature` (`sha256=` and the hex HMAC-SHA256 of
# the body alone) carries no time: it is checked only when the caller names it. The body must be the bytes
# as received; every comparison takes constant time (hmac.compare_digest).
# Each header takes the form of the key the admin API reveals for it: `standard_webhooks_secret` for
# webhook-signature (as every Standard Webhooks library does), `signing_key` for X-Service-Signature. Both
# start with `whsec_`; given the other one, the refusal says so rather than that no signature matched.
from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from email.message import Message
from typing import Final, Literal, NoReturn, TypeAlias, cast

from .resources import WebhookEvent

WebhookVerificationReason: TypeAlias = Literal[
    "missing_id",  # no webhook-id header
    "missing_timestamp",  # no webhook-timestamp header
    "bad_timestamp",  # webhook-timestamp is not a whole number of seconds since 1970 (digits only)
    "timestamp_too_old",  # further behind the receiver's clock than the tolerance: late, or replayed
    "timestamp_in_future",  # further ahead than the tolerance: one of the two clocks is wrong
    "missing_signature",  # no webhook-signature (no X-Service-Signature with scheme="x-service-signature")
    "bad_signature",  # no signature matches the id, timestamp and body under any of the keys
    "wrong_key_form",  # a key is the other header's form; every delivery is refused until it is the right one
    "invalid_body",  # the signed body is not a JSON event
]
"""Why a delivery was refused. A header that is absent, empty or repeated counts as missing."""

Scheme: TypeAlias = Literal["standard-webhooks", "x-service-signature"]

# Request headers: a mapping (a dict, Django's request.headers, …; names in any case, a value or a list of
# them) or an email.message.Message (what http.server gives as self.headers).
WebhookHeaders: TypeAlias = Mapping[str, str] | Mapping[str, Sequence[str]] | Message

DEFAULT_TOLERANCE_SECONDS: Final = 300
_STANDARD_SIGNATURE: Final = re.compile(r"v1,([A-Za-z0-9+/]{43}=)")
_SERVICE_SIGNATURE: Final = re.compile(r"sha256=([0-9a-f]{64})")
_TIMESTAMP: Final = re.compile(r"[0-9]{1,15}")


class WebhookVerificationError(Exception):
    """A delivery that does not verify; `reason` says why, the message says it in words."""

    reason: WebhookVerificationReason

    def __init__(self, reason: WebhookVerificationReason, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def verify_webhook(
    raw_body: bytes | str,
    headers: WebhookHeaders,
    keys: str | Sequence[str],
    *,
    scheme: Scheme = "standard-webhooks",
    tolerance_seconds: float = DEFAULT_TOLERANCE_SECONDS,
    now: Callable[[], float] = time.time,
) -> WebhookEvent:
    """
    The event of a delivery whose signature is right; raises WebhookVerificationError saying why otherwise.

    raw_body is the request body exactly as received. keys is the endpoint's key in the form the admin API
    reveals for the header checked: by default `standard_webhooks_secret` (the key for webhook-signature),
    with scheme="x-service-signature" its `signing_key` (the key for X-Service-Signature). Or several (during
    a rotation, the new one and the old one): a signature under any of them is accepted. A key in the other
    form is refused as wrong_key_form. tolerance_seconds is how far webhook-timestamp may be from now()
    (seconds since 1970), before or after.
    """
    body = raw_body.encode() if isinstance(raw_body, str) else bytes(raw_body)
    given = _keys_given(keys)
    if scheme == "x-service-signature":
        _verify_service_signature(body, headers, [_signing_key_bytes(key) for key in given])
    elif scheme == "standard-webhooks":
        secrets = [_standard_secret_bytes(key) for key in given]
        _verify_standard_signature(body, headers, secrets, tolerance_seconds, now())
    else:
        raise ValueError(f"verify_webhook: no scheme {scheme!r}")
    return _event_of(body)


def _verify_standard_signature(
    body: bytes, headers: WebhookHeaders, keys: list[bytes], tolerance: float, now: float
) -> None:
    if not tolerance >= 0:
        raise ValueError("verify_webhook: tolerance_seconds must be a number of seconds, 0 or more")
    msg_id = _header(headers, "webhook-id")
    if msg_id is None:
        _refuse("missing_id", "The delivery has no webhook-id header")
    timestamp = _header(headers, "webhook-timestamp")
    if timestamp is None:
        _refuse("missing_timestamp", "The delivery has no webhook-timestamp header")
    if not _TIMESTAMP.fullmatch(timestamp):
        _refuse("bad_timestamp", "webhook-timestamp is not a whole number of seconds")
    age = now - int(timestamp)
    if age > tolerance:
        _refuse("timestamp_too_old", f"webhook-timestamp is {round(age)} s old, more than the {tolerance:g} s allowed")
    if -age > tolerance:
        _refuse("timestamp_in_future", f"webhook-timestamp is {round(-age)} s ahead, more than the {tolerance:g} s allowed")

    header = _header(headers, "webhook-signature")
    if header is None:
        _refuse("missing_signature", "The delivery has no webhook-signature header")
    # Signatures of other versions than v1 are passed over, as Standard Webhooks asks.
    signatures = [base64.b64decode(match[1]) for entry in header.split(" ") if (match := _STANDARD_SIGNATURE.fullmatch(entry))]
    signed = f"{msg_id}.{timestamp}.".encode() + body
    expected = [hmac.new(key, signed, hashlib.sha256).digest() for key in keys]
    if not _any_matches(signatures, expected):
        _refuse("bad_signature", "No v1 signature of webhook-signature matches the id, timestamp and body under these keys")


def _verify_service_signature(body: bytes, headers: WebhookHeaders, keys: list[bytes]) -> None:
    header = _header(headers, "x-service-signature")
    if header is None:
        _refuse("missing_signature", "The delivery has no X-Service-Signature header")
    match = _SERVICE_SIGNATURE.fullmatch(header)
    if match is None:
        _refuse("bad_signature", "X-Service-Signature is not sha256= and 64 hex digits")
    expected = [hmac.new(key, body, hashlib.sha256).digest() for key in keys]
    if not _any_matches([bytes.fromhex(match[1])], expected):
        _refuse("bad_signature", "X-Service-Signature does not match the body under these signing keys")


def _any_matches(given: list[bytes], expected: list[bytes]) -> bool:
    """Whether any given signature is any expected one, each comparison in constant time."""
    return any(hmac.compare_digest(signature, digest) for signature in given for digest in expected)


@dataclass(frozen=True)
class _GivenKey:
    key: str
    which: str
    """How a message names it, never by its value: `key 2 of 2: ` among several, nothing for one."""


def _keys_given(keys: str | Sequence[str]) -> list[_GivenKey]:
    listed = [keys] if isinstance(keys, str) else list(keys)
    if not listed or any(not isinstance(key, str) or key == "" for key in listed):
        raise TypeError("verify_webhook needs a key, or several, each a non-empty string")
    return [_GivenKey(key, f"key {index} of {len(listed)}: " if len(listed) > 1 else "") for index, key in enumerate(listed, 1)]


def _standard_secret_bytes(given: _GivenKey) -> bytes:
    """
    The bytes a Standard Webhooks secret encodes: `whsec_` and padded base64, as standard_webhooks_secret is.
    A signing_key also starts with `whsec_`, but 43 characters of unpadded base64url follow, which never read
    back as padded base64 (docs/examples/verify_webhook.py tells them apart the same way).
    """
    secret = _standard_secret_of(given.key)
    if secret is not None:
        return secret
    what = (
        "this looks like the X-Service-Signature key (signing_key)"
        if given.key.startswith("whsec_")
        else "this is not a Standard Webhooks secret (whsec_ and base64)"
    )
    _refuse("wrong_key_form", f"{given.which}{what}; Standard Webhooks needs standard_webhooks_secret (whsec_…), revealed beside it")


def _signing_key_bytes(given: _GivenKey) -> bytes:
    """The bytes of a signing_key, which keys X-Service-Signature as UTF-8; a Standard Webhooks secret is refused."""
    if _standard_secret_of(given.key) is not None:
        _refuse(
            "wrong_key_form",
            f"{given.which}this looks like the Standard Webhooks secret (standard_webhooks_secret); "
            "X-Service-Signature needs signing_key (whsec_…), revealed beside it",
        )
    return given.key.encode()


def _standard_secret_of(key: str) -> bytes | None:
    encoded = key.removeprefix("whsec_") if key.startswith("whsec_") else ""
    try:
        decoded = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        return None
    return decoded if encoded and base64.b64encode(decoded).decode() == encoded else None


def _event_of(body: bytes) -> WebhookEvent:
    try:
        event = json.loads(body)
    except ValueError:
        _refuse("invalid_body", "The signed body is not JSON")
    if not isinstance(event, dict) or not isinstance(event.get("type"), str):
        _refuse("invalid_body", "The signed body is not an event (no type)")
    return cast(WebhookEvent, event)


def _refuse(reason: WebhookVerificationReason, message: str) -> NoReturn:
    raise WebhookVerificationError(reason, message)


def _header(headers: WebhookHeaders, name: str) -> str | None:
    """The one value of a header, by its name in any case, trimmed; None when absent, empty or repeated."""
    values: list[str]
    if isinstance(headers, Message):
        values = [str(value) for value in headers.get_all(name) or []]
    else:
        given = [headers[key] for key in headers if key.lower() == name]
        values = [value for value in given for value in ([value] if isinstance(value, str) else value)]
    if len(values) != 1:
        return None
    value = values[0].strip()
    # A repeated header joined by the server reads as one value with ", ", which no value read here holds.
    return value if value and ", " not in value else None
