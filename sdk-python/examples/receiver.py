# A webhook receiver on Python's standard library: read the raw body, verify it, answer 204 (or 400 saying
# why not). GUIDE_STANDARD_WEBHOOKS_SECRET is the endpoint's standard_webhooks_secret (the key for
# webhook-signature); during a rotation's overlap, the new one and the old one, separated by a space.
import os
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from guide_service import WebhookVerificationError, verify_webhook

secrets = os.environ["GUIDE_STANDARD_WEBHOOKS_SECRET"].split()
# webhook-id of the deliveries handled: a retry or a resend of one is acknowledged, not handled again.
handled: set[str] = set()


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        try:
            event = verify_webhook(body, self.headers, secrets)
        except WebhookVerificationError as error:
            self.send_response(400)
            self.end_headers()
            self.wfile.write(error.reason.encode())
            return
        self.send_response(204)
        self.end_headers()
        if event["id"] not in handled:
            handled.add(event["id"])
            print("received", event["type"], event["id"], flush=True)


ThreadingHTTPServer(("127.0.0.1", int(os.environ.get("PORT", "8080"))), Receiver).serve_forever()
