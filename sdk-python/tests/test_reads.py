# The reads of the v1 API (spec §4) through the client, against the running service: the key, guides
# over every page, one guide by id or permalink, teams and members, and the errors as typed exceptions.
from __future__ import annotations

import uuid

import pytest
from conftest import Service, Tenant, make_tenant

from guide_service import GuideService, GuideServiceError


def test_verify_key_answers_what_the_key_is(tenant: Tenant) -> None:
    key = tenant.client.verify_key()
    assert key["home"] == {"type": "organization", "id": tenant.organization_id}
    assert sorted(key["scopes"]) == ["guides:read", "members:read", "teams:read"]
    assert key["expires_at"] is not None


def test_guides_list_walks_every_page_newest_first_through_next_cursor(tenant: Tenant) -> None:
    made = tenant.guides(*(f"Guide {n}" for n in range(7)))
    pages = list(tenant.client.guides.list(limit=3).pages())
    assert [len(page.items) for page in pages] == [3, 3, 1]
    assert [page.next_cursor is None for page in pages] == [False, False, True]
    assert [guide["id"] for guide in tenant.client.guides.list(limit=3)] == [guide["id"] for guide in reversed(made)]
    # A walk can start from a page's cursor.
    rest = tenant.client.guides.list(limit=3, cursor=pages[0].next_cursor).to_list()
    assert [guide["title"] for guide in rest] == [f"Guide {n}" for n in (3, 2, 1, 0)]


def test_guides_list_searches_titles_and_narrows_to_a_team(tenant: Tenant) -> None:
    tenant.guides("Reset a password", "Rotate the keys")
    other_team = tenant.service.admin("POST", "/teams", {"name": "Onboarding", "organization_id": tenant.organization_id})["data"]
    tenant.service.guide(other_team["id"], "Welcome aboard")
    assert [guide["title"] for guide in tenant.client.guides.list(q="PASSWORD")] == ["Reset a password"]
    assert [guide["title"] for guide in tenant.client.guides.list(team_id=other_team["id"])] == ["Welcome aboard"]


def test_guides_get_by_id_or_permalink_has_the_markdown(tenant: Tenant) -> None:
    (made,) = tenant.guides("Reset a password")
    by_id = tenant.client.guides.get(made["id"])
    assert by_id["title"] == "Reset a password"
    assert "Open settings" in by_id["markdown_body"]
    assert by_id["notice"] is None  # the Growth plan reads whole guides
    assert tenant.client.guides.get(made["permalink"]) == by_id


def test_teams_and_members_list(tenant: Tenant) -> None:
    person = tenant.service.admin("POST", "/users", {"email": f"ana-{uuid.uuid4().hex[:6]}@example.com", "name": "Ana"})["data"]
    tenant.service.admin("PUT", f"/teams/{tenant.team_id}/members/{person['id']}", {"role": "EDITOR"})
    assert tenant.client.teams.list() == [{"id": tenant.team_id, "name": "Support", "role": None}]
    members = tenant.client.members.list(team_id=tenant.team_id)
    assert [(member["id"], member["role"]) for member in members] == [(person["id"], "EDITOR")]


def test_a_refusal_is_a_guide_service_error_with_the_problems_code_status_detail_and_request_id(tenant: Tenant) -> None:
    with pytest.raises(GuideServiceError) as raised:
        tenant.client.guides.get(str(uuid.uuid4()))
    error = raised.value
    assert (error.code, error.status) == ("not_found", 404)
    assert error.problem is not None and error.problem["code"] == "not_found"
    assert error.request_id == error.problem["request_id"] and error.request_id
    assert error.rate_limit is not None and error.rate_limit.limit == 600
    assert tenant.client.rate_limit == error.rate_limit

    with pytest.raises(GuideServiceError) as raised:
        tenant.client.guides.list(limit=500).to_list()
    assert (raised.value.code, raised.value.status) == ("invalid_request", 400)
    assert "limit" in raised.value.detail


def test_a_wrong_key_is_invalid_key_and_a_missing_scope_is_scope_missing(service: Service) -> None:
    with pytest.raises(GuideServiceError) as raised:
        GuideService(api_key="gsk_" + "0" * 38, base_url=service.base_url).verify_key()
    assert (raised.value.code, raised.value.status) == ("invalid_key", 401)

    guides_only = make_tenant(service, scopes=["guides:read"])
    with pytest.raises(GuideServiceError) as raised:
        guides_only.client.members.list(team_id=guides_only.team_id)
    assert (raised.value.code, raised.value.status) == ("scope_missing", 403)
    assert "members:read" in raised.value.detail
