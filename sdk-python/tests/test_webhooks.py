# verify_webhook on real deliveries of the running service to a receiver here (README "For receivers",
# shared decisions §9, §10): the Standard Webhooks headers with the endpoint's standard_webhooks_secret and
# a five-minute tolerance, several keys during a rotation's overlap, the specification's
# X-Service-Signature with its signing_key, and each key's wrong form refused in words. The verifier that
# /docs/webhooks shows (docs/examples/verify_webhook.py) agrees on the same deliveries.
from __future__ import annotations

import importlib.util
import time
from types import ModuleType
from typing import Any

import pytest
from conftest import REPO_ROOT, Delivery, Receiver, Tenant

from guide_service import WebhookVerificationError, verify_webhook

SIX_MINUTES = 6 * 60


def endpoint(tenant: Tenant, receiver: Receiver) -> dict[str, Any]:
    """An endpoint of the tenant's team for guide.created, at the receiver: with its key in both forms."""
    home = {"type": "team", "id": tenant.team_id}
    return dict(tenant.service.admin("POST", "/webhook-endpoints", {"home": home, "url": receiver.url, "events": ["guide.created"]})["data"])


def refusal(delivery: Delivery, keys: str | list[str], **options: Any) -> WebhookVerificationError:
    with pytest.raises(WebhookVerificationError) as raised:
        verify_webhook(delivery.body, delivery.headers, keys, **options)
    return raised.value


def test_a_real_delivery_verifies_with_standard_webhooks_secret_and_gives_the_event(tenant: Tenant, receiver: Receiver) -> None:
    created = endpoint(tenant, receiver)
    secret = created["standard_webhooks_secret"]
    ping = receiver.next("ping")
    assert verify_webhook(ping.body, ping.headers, secret)["type"] == "ping"

    (guide,) = tenant.guides("Reset a password")
    delivery = receiver.next("guide.created")
    event = verify_webhook(delivery.body, delivery.headers, secret)
    assert event["type"] == "guide.created" and event["data"]["guide"]["id"] == guide["id"]
    assert event["id"] == delivery.headers["webhook-id"]
    # Headers as a plain mapping, in any case, and the body as text, do as well.
    as_dict = {name.upper(): value for name, value in delivery.headers.items()}
    assert verify_webhook(delivery.body.decode(), as_dict, [secret]) == event


def test_a_delivery_outside_the_five_minute_tolerance_is_refused(tenant: Tenant, receiver: Receiver) -> None:
    secret = endpoint(tenant, receiver)["standard_webhooks_secret"]
    ping = receiver.next("ping")
    assert refusal(ping, secret, now=lambda: time.time() + SIX_MINUTES).reason == "timestamp_too_old"
    assert refusal(ping, secret, now=lambda: time.time() - SIX_MINUTES).reason == "timestamp_in_future"
    assert verify_webhook(ping.body, ping.headers, secret, now=lambda: time.time() + SIX_MINUTES, tolerance_seconds=600)


def test_a_tampered_or_stripped_delivery_is_refused_saying_why(tenant: Tenant, receiver: Receiver) -> None:
    secret = endpoint(tenant, receiver)["standard_webhooks_secret"]
    ping = receiver.next("ping")
    headers = dict(ping.headers.items())
    assert refusal(Delivery(ping.headers, ping.body.replace(b"}", b" }", 1)), secret).reason == "bad_signature"
    for name, reason in [("webhook-id", "missing_id"), ("webhook-timestamp", "missing_timestamp"), ("webhook-signature", "missing_signature")]:
        stripped = {key: value for key, value in headers.items() if key.lower() != name}
        with pytest.raises(WebhookVerificationError) as raised:
            verify_webhook(ping.body, stripped, secret)
        assert raised.value.reason == reason
    # A header given twice counts as missing.
    with pytest.raises(WebhookVerificationError) as raised:
        verify_webhook(ping.body, {**headers, "webhook-id": [headers["webhook-id"]] * 2}, secret)
    assert raised.value.reason == "missing_id"
    with pytest.raises(WebhookVerificationError) as raised:
        verify_webhook(ping.body, {**headers, "webhook-timestamp": "soon"}, secret)
    assert raised.value.reason == "bad_timestamp"


def test_x_service_signature_verifies_with_signing_key_when_asked_for(tenant: Tenant, receiver: Receiver) -> None:
    created = endpoint(tenant, receiver)
    ping = receiver.next("ping")
    event = verify_webhook(ping.body, ping.headers, created["signing_key"], scheme="x-service-signature")
    assert event["type"] == "ping"
    other = {name.lower(): value for name, value in ping.headers.items()}
    other["x-service-signature"] = "sha256=" + "0" * 64
    with pytest.raises(WebhookVerificationError) as raised:
        verify_webhook(ping.body, other, created["signing_key"], scheme="x-service-signature")
    assert raised.value.reason == "bad_signature"


def test_each_header_refuses_the_other_forms_key_in_words(tenant: Tenant, receiver: Receiver) -> None:
    created = endpoint(tenant, receiver)
    ping = receiver.next("ping")
    wrong = refusal(ping, created["signing_key"])
    assert wrong.reason == "wrong_key_form"
    assert "looks like the X-Service-Signature key (signing_key)" in str(wrong)
    assert "needs standard_webhooks_secret" in str(wrong)
    assert created["signing_key"] not in str(wrong)
    wrong = refusal(ping, created["standard_webhooks_secret"], scheme="x-service-signature")
    assert wrong.reason == "wrong_key_form"
    assert "X-Service-Signature needs signing_key" in str(wrong)
    wrong = refusal(ping, "not-a-key")
    assert (wrong.reason, str(wrong).startswith("this is not a Standard Webhooks secret")) == ("wrong_key_form", True)
    # Among several keys, the message says which.
    assert str(refusal(ping, [created["standard_webhooks_secret"], created["signing_key"]])).startswith("key 2 of 2: ")


def test_during_a_rotations_overlap_either_key_verifies_and_x_service_signature_stays_on_the_old_one(
    tenant: Tenant, receiver: Receiver
) -> None:
    old = endpoint(tenant, receiver)
    receiver.next("ping")
    new = tenant.service.admin("POST", f"/webhook-endpoints/{old['id']}/signing-key/rotate", {"keep_old_for_hours": 1})["data"]
    tenant.service.admin("POST", f"/webhook-endpoints/{old['id']}/ping")
    ping = receiver.next("ping")
    assert len(ping.headers["webhook-signature"].split(" ")) == 2

    for keys in ([new["standard_webhooks_secret"]], [old["standard_webhooks_secret"]], [new["standard_webhooks_secret"], old["standard_webhooks_secret"]]):
        assert verify_webhook(ping.body, ping.headers, keys)["type"] == "ping"
    unrelated = "whsec_" + "QUJD" * 8
    assert refusal(ping, unrelated).reason == "bad_signature"

    assert verify_webhook(ping.body, ping.headers, [new["signing_key"], old["signing_key"]], scheme="x-service-signature")
    assert refusal(ping, new["signing_key"], scheme="x-service-signature").reason == "bad_signature"


def docs_verifier() -> ModuleType:
    spec = importlib.util.spec_from_file_location("verify_webhook_docs", REPO_ROOT / "docs" / "examples" / "verify_webhook.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_docs_python_verifier_agrees_on_the_same_deliveries(tenant: Tenant, receiver: Receiver) -> None:
    created = endpoint(tenant, receiver)
    ping = receiver.next("ping")
    docs = docs_verifier()
    headers = dict(ping.headers.items())
    assert docs.verify_webhook(ping.body, headers, [created["standard_webhooks_secret"]]) == verify_webhook(
        ping.body, headers, created["standard_webhooks_secret"]
    )
    # Both refuse signing_key for webhook-signature, saying it is the X-Service-Signature key.
    with pytest.raises(ValueError, match="X-Service-Signature key"):
        docs.verify_webhook(ping.body, headers, [created["signing_key"]])
    assert "X-Service-Signature key" in str(refusal(ping, created["signing_key"]))
    # And both refuse a tampered body.
    with pytest.raises(ValueError):
        docs.verify_webhook(ping.body + b" ", headers, [created["standard_webhooks_secret"]])
    assert refusal(Delivery(ping.headers, ping.body + b" "), created["standard_webhooks_secret"]).reason == "bad_signature"
