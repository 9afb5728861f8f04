"""Atlassian's popular Python clients, pinned (atlassian-python-api 5.0.5, jira 3.10.5), at their default
settings against the real `atlas-gym serve`: the five workflows of the scenarios (transition an issue,
create a sub-task, create a page under a parent, label a page, create a page and link it from an issue)
and the common reads. Each end state is read back over REST v3 / Confluence v2, not through the client.

Each test works on its own isolated site (`/s/<name>`), so they start from the same pristine fixture."""

from __future__ import annotations

import json
from typing import Any

import pytest
import requests
from atlassian import Confluence, Jira
from jira import JIRA

from atlas_gym.server_process import EnvServerProcess

EMAIL = "agent@example.com"
TOKEN = "any-token"  # `serve` without --auth accepts any Basic credentials


def site(env_server: EnvServerProcess, name: str) -> str:
    return f"{env_server.url}/s/{name}"


def rest(base: str, path: str, **params: Any) -> Any:
    response = requests.get(f"{base}{path}", params=params, auth=(EMAIL, TOKEN), timeout=30)
    assert response.status_code == 200, response.text
    return response.json()


def adf_text(node: Any) -> str:
    if not isinstance(node, dict):
        return ""
    return node.get("text", "") + "".join(adf_text(c) for c in node.get("content", []))


def marks(node: Any) -> set[str]:
    if not isinstance(node, dict):
        return set()
    own = {m["type"] for m in node.get("marks", [])}
    return own.union(*(marks(c) for c in node.get("content", [])))


def python_api(base: str) -> tuple[Jira, Confluence]:
    jira = Jira(url=base, username=EMAIL, password=TOKEN, cloud=True)
    # Confluence at its default: for a host that is not *.atlassian.net the class picks its REST v1
    # implementation (`/wiki/rest/api/content`), the API that its page methods are written for.
    wiki = Confluence(url=f"{base}/wiki", username=EMAIL, password=TOKEN)
    return jira, wiki


def first_parent_page(base: str, space_key: str = "ENG") -> dict[str, Any]:
    space = rest(base, "/wiki/api/v2/spaces", keys=space_key)["results"][0]
    pages = rest(base, "/wiki/api/v2/pages", **{"space-id": space["id"]})["results"]
    return next(p for p in pages if p.get("parentId") == space["homepageId"])


# --- atlassian-python-api 5.0.5 -------------------------------------------------------------------


def test_python_api_transitions_an_issue(env_server: EnvServerProcess) -> None:
    base = site(env_server, "py-transition")
    jira, _ = python_api(base)
    before = rest(base, "/rest/api/3/issue/ENG-1", fields="status")["fields"]["status"]["name"]
    target = next(t for t in jira.get_issue_transitions("ENG-1") if t["to"] not in (before, "Done"))
    jira.set_issue_status("ENG-1", target["to"])
    after = rest(base, "/rest/api/3/issue/ENG-1", fields="status")["fields"]["status"]["name"]
    assert after == target["to"] != before


def test_python_api_creates_a_subtask_with_wiki_description(env_server: EnvServerProcess) -> None:
    base = site(env_server, "py-subtask")
    jira, _ = python_api(base)
    types = jira.get_project("OPS")["issueTypes"]
    subtask = next(t for t in types if t["subtask"])
    parent = jira.jql("project = OPS AND issuetype != Sub-task ORDER BY key")["issues"][0]
    created = jira.issue_create(
        fields={
            "project": {"key": "OPS"},
            "issuetype": {"id": subtask["id"]},
            "parent": {"key": parent["key"]},
            "summary": "Rotate the on-call pager",
            "description": "Steps:\n* page *the* team\n* check {{pager.cfg}}",
        }
    )
    stored = rest(base, f"/rest/api/3/issue/{created['key']}", fields="parent,issuetype,description")
    assert stored["fields"]["parent"]["key"] == parent["key"]
    assert stored["fields"]["issuetype"]["id"] == subtask["id"]
    description = stored["fields"]["description"]
    assert [n["type"] for n in description["content"]] == ["paragraph", "bulletList"]
    assert marks(description) == {"strong", "code"}
    # ...and v2 reads it back as the same wiki markup
    assert jira.get_issue(created["key"])["fields"]["description"] == "Steps:\n\n* page *the* team\n* check {{pager.cfg}}"


def test_python_api_comments_search_project_and_users(env_server: EnvServerProcess) -> None:
    base = site(env_server, "py-reads")
    jira, _ = python_api(base)
    added = jira.issue_add_comment("ENG-1", "Looks *good* to me")
    listed = jira.issue_get_comments("ENG-1")["comments"]
    assert listed[-1]["id"] == added["id"] and listed[-1]["body"] == "Looks *good* to me"
    stored = rest(base, f"/rest/api/3/issue/ENG-1/comment/{added['id']}")["body"]
    assert adf_text(stored) == "Looks good to me" and marks(stored) == {"strong"}
    keys = [i["key"] for i in jira.jql("project = ENG ORDER BY key", fields="summary")["issues"]]
    assert keys and all(k.startswith("ENG-") for k in keys)
    assert jira.get_project("ENG")["key"] == "ENG"
    users = jira.user_find_by_user_string(query="Priya")
    assert users and all("Priya" in u["displayName"] for u in users)
    me = jira.myself()
    assert me["emailAddress"] == EMAIL
    assert rest(base, "/rest/api/3/user", accountId=me["accountId"])["accountId"] == me["accountId"]


def test_python_api_creates_a_page_under_a_parent(env_server: EnvServerProcess) -> None:
    base = site(env_server, "py-page")
    _, wiki = python_api(base)
    parent = first_parent_page(base)
    created = wiki.create_page("ENG", "Incident review 42", "<p>What happened</p>", parent_id=parent["id"])
    assert wiki.get_page_id("ENG", "Incident review 42") == created["id"]
    stored = rest(base, f"/wiki/api/v2/pages/{created['id']}", **{"body-format": "storage"})
    assert stored["parentId"] == parent["id"] and stored["title"] == "Incident review 42"
    assert stored["body"]["storage"]["value"] == "<p>What happened</p>"
    children = [c["id"] for c in wiki.get_page_child_by_type(parent["id"], type="page")]
    assert created["id"] in children
    wiki.update_page(created["id"], "Incident review 42", "<p>What happened, and why</p>")
    updated = rest(base, f"/wiki/api/v2/pages/{created['id']}", **{"body-format": "storage"})
    assert updated["version"]["number"] == 2
    assert updated["body"]["storage"]["value"] == "<p>What happened, and why</p>"


def test_python_api_labels_a_page_and_searches_with_cql(env_server: EnvServerProcess) -> None:
    base = site(env_server, "py-label")
    _, wiki = python_api(base)
    page = first_parent_page(base)
    found = wiki.cql(f'type=page AND space=ENG AND title="{page["title"]}"')["results"]
    assert [r["content"]["id"] for r in found] == [page["id"]]
    wiki.set_page_label(page["id"], "needs-review")
    labels = rest(base, f"/wiki/api/v2/pages/{page['id']}/labels")["results"]
    assert "needs-review" in [label["name"] for label in labels]
    assert wiki.get_space("ENG")["key"] == "ENG"


def test_python_api_creates_a_page_and_links_it_from_an_issue(env_server: EnvServerProcess) -> None:
    base = site(env_server, "py-link")
    jira, wiki = python_api(base)
    page = wiki.create_page("ENG", "ENG-1 design notes", "<p>Notes for ENG-1</p>")
    url = f"{base}/wiki{page['_links']['webui']}"
    jira.create_or_update_issue_remote_links("ENG-1", url, "ENG-1 design notes")
    links = rest(base, "/rest/api/3/issue/ENG-1/remotelink")
    assert [(link["object"]["url"], link["object"]["title"]) for link in links] == [(url, "ENG-1 design notes")]


# --- jira 3.10.5 (pycontribs) ---------------------------------------------------------------------


def pycontribs(base: str) -> JIRA:
    return JIRA(server=base, basic_auth=(EMAIL, TOKEN))


def test_pycontribs_starts_on_cloud(env_server: EnvServerProcess) -> None:
    client = pycontribs(site(env_server, "pc-start"))
    assert client._is_cloud  # decided from serverInfo's deploymentType
    assert client.server_info()["deploymentType"] == "Cloud"
    assert {"summary", "description", "assignee"} <= {f["id"] for f in client.fields()}


def test_pycontribs_transitions_an_issue(env_server: EnvServerProcess) -> None:
    base = site(env_server, "pc-transition")
    client = pycontribs(base)
    before = client.issue("ENG-1").fields.status.name
    target = next(t for t in client.transitions("ENG-1") if t["to"]["name"] not in (before, "Done"))
    client.transition_issue("ENG-1", target["id"])
    after = rest(base, "/rest/api/3/issue/ENG-1", fields="status")["fields"]["status"]["name"]
    assert after == target["to"]["name"] != before


def test_pycontribs_creates_a_subtask(env_server: EnvServerProcess) -> None:
    base = site(env_server, "pc-subtask")
    client = pycontribs(base)
    parent = client.search_issues("project = OPS AND issuetype != Sub-task ORDER BY key", maxResults=1)[0]
    subtask = next(t for t in client.project("OPS").issueTypes if t.subtask)
    assignee = client.search_users(query="Priya")[0]
    issue = client.create_issue(
        fields={
            "project": {"key": "OPS"},
            "issuetype": {"id": subtask.id},
            "parent": {"key": parent.key},
            "summary": "Renew the TLS certificate",
            "description": "h2. Plan\nrenew _before_ Friday",
            "assignee": {"accountId": assignee.accountId},
        }
    )
    stored = rest(base, f"/rest/api/3/issue/{issue.key}", fields="parent,assignee,description")["fields"]
    assert stored["parent"]["key"] == parent.key
    assert stored["assignee"]["accountId"] == assignee.accountId
    assert stored["description"]["content"][0] == {
        "type": "heading",
        "attrs": {"level": 2},
        "content": [{"type": "text", "text": "Plan"}],
    }
    assert issue.fields.description == "h2. Plan\n\nrenew _before_ Friday"


def test_pycontribs_comments_and_remote_link(env_server: EnvServerProcess) -> None:
    base = site(env_server, "pc-comment")
    client = pycontribs(base)
    comment = client.add_comment("ENG-1", "Deployed in [build 7|https://ci.example.com/7]")
    assert [c.id for c in client.comments("ENG-1")][-1] == comment.id
    stored = rest(base, f"/rest/api/3/issue/ENG-1/comment/{comment.id}")["body"]
    assert marks(stored) == {"link"}
    client.add_simple_link("ENG-1", {"url": "https://example.com/runbook", "title": "Runbook"})
    links = rest(base, "/rest/api/3/issue/ENG-1/remotelink")
    assert [link["object"]["title"] for link in links] == ["Runbook"]


def test_pycontribs_mentions_a_person_in_a_comment(env_server: EnvServerProcess) -> None:
    """`add_comment` posts wiki markup on /rest/api/2: `[~accountid:<id>]` is stored as an ADF mention node
    (id and "@Display Name", as Jira Cloud does) and read back over v2 as the same markup."""
    base = site(env_server, "pc-mention")
    client = pycontribs(base)
    person = client.search_users(query="Priya")[0]
    comment = client.add_comment("ENG-1", f"[~accountid:{person.accountId}] please review")
    stored = rest(base, f"/rest/api/3/issue/ENG-1/comment/{comment.id}")["body"]
    assert stored["content"][0]["content"] == [
        {"type": "mention", "attrs": {"id": person.accountId, "text": f"@{person.displayName}", "accessLevel": ""}},
        {"type": "text", "text": " please review"},
    ]
    assert client.comment("ENG-1", comment.id).body == f"[~accountid:{person.accountId}] please review"


def test_pycontribs_reads(env_server: EnvServerProcess) -> None:
    base = site(env_server, "pc-reads")
    client = pycontribs(base)
    issues = client.search_issues("project = ENG ORDER BY key", maxResults=3)
    assert [i.key for i in issues] == sorted((i.key for i in issues), key=lambda k: int(k.split("-")[1]))
    assert client.project("ENG").key == "ENG"
    me = client.myself()
    assert me["emailAddress"] == EMAIL
    user = client.user(me["accountId"])
    assert user.displayName == me["displayName"]
    assert json.loads(json.dumps(client.issue("ENG-1").raw))["key"] == "ENG-1"


def test_pycontribs_links_issues(env_server: EnvServerProcess) -> None:
    base = site(env_server, "pc-link")
    client = pycontribs(base)
    client.create_issue_link("Blocks", "ENG-3", "ENG-4")  # sends "comment": null
    links = rest(base, "/rest/api/3/issue/ENG-3", fields="issuelinks")["fields"]["issuelinks"]
    assert [(link["type"]["name"], link["outwardIssue"]["key"]) for link in links if "outwardIssue" in link] == [
        ("Blocks", "ENG-4")
    ]


def test_pycontribs_lists_projects_priorities_types_and_statuses(env_server: EnvServerProcess) -> None:
    client = pycontribs(site(env_server, "pc-lists"))
    assert {"ENG", "OPS"} <= {p.key for p in client.projects()}
    assert "Medium" in {p.name for p in client.priorities()}
    assert "Task" in {t.name for t in client.issue_types()}
    assert "Done" in {s.name for s in client.statuses()}


def test_pycontribs_assigns_an_issue(env_server: EnvServerProcess) -> None:
    base = site(env_server, "pc-assign")
    client = pycontribs(base)
    priya = client.search_users(query="Priya")[0]
    assert client.assign_issue("ENG-2", priya.accountId)  # user/search by accountId, then latest/.../assignee
    stored = rest(base, "/rest/api/3/issue/ENG-2", fields="assignee")["fields"]["assignee"]
    assert stored["accountId"] == priya.accountId


def test_python_api_updates_or_creates_a_page(env_server: EnvServerProcess) -> None:
    base = site(env_server, "pa-upsert")
    _, wiki = python_api(base)
    parent = first_parent_page(base)
    created = wiki.update_or_create(parent["id"], "Upsert notes", "<p>first</p>")  # content/search by CQL
    updated = wiki.update_or_create(parent["id"], "Upsert notes", "<p>second</p>")
    assert updated["id"] == created["id"]
    stored = rest(base, f"/wiki/api/v2/pages/{created['id']}", **{"body-format": "storage"})
    assert (stored["parentId"], stored["version"]["number"]) == (parent["id"], 2)
    assert stored["body"]["storage"]["value"] == "<p>second</p>"


def test_pycontribs_comments_with_a_one_line_code_block(env_server: EnvServerProcess) -> None:
    base = site(env_server, "pc-code")
    comment = pycontribs(base).add_comment("ENG-1", "{code}x=1{code}")
    stored = rest(base, f"/rest/api/3/issue/ENG-1/comment/{comment.id}")["body"]
    assert stored["content"] == [{"type": "codeBlock", "content": [{"type": "text", "text": "x=1"}]}]


def test_with_a_server_token_the_clients_use_it_as_their_api_token() -> None:
    """`serve --token T`: every route needs T; real clients send it as the Basic API token, the env
    client as a bearer token, and a wrong or missing token is refused on every surface."""
    from atlas_gym.client import AuthenticationError, EnvClient

    secret = "lock-token-7f3a"
    with EnvServerProcess(["--token", secret]) as server:
        base = f"{server.url}/s/locked"
        issue = JIRA(server=base, basic_auth=(EMAIL, secret)).issue("ENG-1")
        assert issue.key == "ENG-1"
        jira = Jira(url=base, username=EMAIL, password=secret, cloud=True)
        assert jira.issue("ENG-1")["key"] == "ENG-1"
        wrong = requests.post(
            f"{base}/rest/api/3/issue/ENG-1/comment", json={"body": "x"}, auth=(EMAIL, "guess"), timeout=30
        )
        assert wrong.status_code == 401 and wrong.json()["errorMessages"]
        assert requests.get(f"{server.url}/v1/scenarios", timeout=30).status_code == 401
        client = EnvClient(server.url, token=secret)
        session = client.create_session(task_id="jira-transition-v1/eval/0")
        assert client.call_tool(session.session_id, "jira_get_issue", {"issueIdOrKey": "ENG-1"}).ok
        with pytest.raises(AuthenticationError):
            EnvClient(server.url, token="guess").scenarios()
