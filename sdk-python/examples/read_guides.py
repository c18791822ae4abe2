# Reading guides: every page in turn, one guide by its permalink, and the errors worth telling apart.
import os

from guide_service import GuideService, GuideServiceError

client = GuideService(api_key=os.environ["GUIDE_API_KEY"], base_url=os.environ["GUIDE_URL"])
print("key:", client.verify_key()["name"])

# Every guide whose title holds "password", newest first, page after page (100 a request).
found = list(client.guides.list(q="password", limit=100))
print(f"{len(found)} guides about passwords:", [guide["title"] for guide in found])

for id_or_permalink in [guide["permalink"] or guide["id"] for guide in found[:1]] + ["no-such-guide"]:
    try:
        guide = client.guides.get(id_or_permalink)
        print(guide["title"], len(guide["markdown_body"]), "characters of markdown")
    except GuideServiceError as error:
        match error.code:
            case "not_found":
                print("no such guide:", id_or_permalink)
            case "rate_limited":
                print(f"slow down: {error.retry_after} s until the next window")
            case _:
                print(f"{error.code} ({error.status}): {error.detail}, request {error.request_id}")
