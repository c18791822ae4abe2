# Verifies a webhook delivery of the guide service by its Standard Webhooks headers, with Python's
# standard library only. `secrets`: the endpoint's standard_webhooks_secret (the key for
# webhook-signature), or during a rotation's overlap the new one and the old one. Returns the event;
# raises ValueError unless one of the keys signed the delivery and it was sent within five minutes of now
# (so that a captured delivery cannot be replayed later).
import base64
import binascii
import hashlib
import hmac
import json
import time

TOLERANCE_SECONDS = 5 * 60


def verify_webhook(raw_body, headers, secrets):
    """raw_body: the body's bytes as received, before any JSON parsing; headers: a mapping of them."""
    keys = [_key_of(secret) for secret in secrets]
    headers = {name.lower(): value for name, value in headers.items()}
    msg_id = headers.get("webhook-id")
    timestamp = headers.get("webhook-timestamp")
    signatures = headers.get("webhook-signature")
    if not (msg_id and timestamp and signatures):
        raise ValueError("not a signed delivery: a webhook-* header is missing")
    if not (timestamp.isascii() and timestamp.isdigit()) or abs(time.time() - int(timestamp)) > TOLERANCE_SECONDS:
        raise ValueError("webhook-timestamp is more than five minutes from now: a replay, or a clock that is wrong")
    signed = f"{msg_id}.{timestamp}.".encode() + raw_body
    # One `v1,<base64>` per key that signed: two during a rotation's overlap.
    given = [signature[3:].encode() for signature in signatures.split(" ") if signature.startswith("v1,")]
    for key in keys:
        expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest())
        if any(hmac.compare_digest(expected, signature) for signature in given):
            return json.loads(raw_body)
    raise ValueError("no webhook-signature matches: a changed body, or a key this receiver does not hold")


def _key_of(secret):
    """The key bytes of a standard_webhooks_secret: what follows `whsec_`, in base64."""
    try:
        return base64.b64decode(secret.removeprefix("whsec_"), validate=True)
    except binascii.Error:
        # signing_key starts with whsec_ too, but it keys X-Service-Signature, and what follows it is not base64.
        raise ValueError(
            "this looks like the X-Service-Signature key (signing_key); Standard Webhooks needs standard_webhooks_secret (whsec_…)"
        ) from None
