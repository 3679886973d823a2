"""`outfall run` with DAGSTER_HOME set: its runs wait in the instance's run queue, as the UI's do.

When the instance's web server answers (``OUTFALL_DAGSTER_URL``, default ``http://127.0.0.1:3000``; the
one `dg dev` or ``dagster-webserver`` serves, for the code location ``outfall`` of the same DAGSTER_HOME),
the command does not run anything itself. Through the web server's GraphQL API (the calls the UI makes) it
launches a run of the ingestion step with its own settings (its folders, day and warehouse, as run
config), waits for it in the queue, registers the partitions the files give, asks Dagster which assets and
partitions are stale or missing (their data versions: ``outfall.versions``), and launches one backfill of
those, which Dagster's backfill daemon runs in the order their partitions need. The runs belong to the
code location ``outfall``: the UI shows them, and re-executes them, like its own. One step of the pool
``outfall_warehouse`` writes the warehouse at a time, whoever launched it.

Light on purpose (urllib and json): the command decides whether to use it before it imports Dagster.
"""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from collections.abc import Iterable
from pathlib import Path

URL_VARIABLE = "OUTFALL_DAGSTER_URL"
DEFAULT_URL = "http://127.0.0.1:3000"
LOCATION, REPOSITORY, ASSET_JOB = "outfall", "__repository__", "__ASSET_JOB"
RUN_DONE = {"SUCCESS", "FAILURE", "CANCELED"}
BACKFILL_DONE = {"COMPLETED", "COMPLETED_SUCCESS", "COMPLETED_FAILED", "FAILED", "CANCELED", "FAILING"}

INSTANCE = "{ instance { info } workspaceOrError { ... on Workspace { locationEntries { name } } } }"
LAUNCH_RUN = """mutation($params: ExecutionParams!) { launchRun(executionParams: $params) {
  __typename ... on LaunchRunSuccess { run { runId } } ... on PythonError { message }
  ... on RunConfigValidationInvalid { errors { message } } ... on InvalidSubsetError { message } } }"""
RUN_STATUS = "query($id: ID!) { runOrError(runId: $id) { ... on Run { status } } }"
STALE = """query($keys: [AssetKeyInput!]) { assetNodes(assetKeys: $keys) {
  assetKey { path } isPartitioned partitionKeys staleStatus } }"""
STALE_BY_PARTITION = """query($key: AssetKeyInput!, $partitions: [String!]) {
  assetNodeOrError(assetKey: $key) {
    ... on AssetNode { staleStatusByPartition(partitions: $partitions) } } }"""
LAUNCH_BACKFILL = """mutation($params: LaunchBackfillParams!) {
  launchPartitionBackfill(backfillParams: $params) {
  __typename ... on LaunchBackfillSuccess { backfillId } ... on PythonError { message }
  ... on PartitionSetNotFoundError { message } ... on UnauthorizedError { message } } }"""
BACKFILL = """query($id: String!) { partitionBackfillOrError(backfillId: $id) {
  ... on PartitionBackfill { status runs(limit: 10000) { runId status } } } }"""
EVENTS = """query($id: ID!, $cursor: String) { logsForRun(runId: $id, afterCursor: $cursor, limit: 5000) {
  ... on EventConnection { cursor hasMore events { __typename
    ... on MaterializationEvent { assetKey { path } partition }
    ... on ExecutionStepFailureEvent { stepKey error { message causes { message } } }
    ... on RunFailureEvent { error { message } }
    ... on AssetCheckEvaluationEvent { evaluation { assetKey { path } checkName success } } } } } }"""


class Server:
    """The web server of the Dagster instance, through its GraphQL API."""

    def __init__(self, url: str):
        self.url = url.rstrip("/")

    def query(self, text: str, variables: dict | None = None, timeout: float = 60) -> dict:
        body = json.dumps({"query": text, "variables": variables or {}}).encode()
        request = urllib.request.Request(
            f"{self.url}/graphql", data=body, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=timeout) as response:
            answer = json.loads(response.read())
        if answer.get("errors"):
            raise RuntimeError(f"the Dagster web server at {self.url} answered: {answer['errors'][0]}")
        return answer["data"]


def server_of(home: str | None) -> Server | None:
    """The web server of the instance in ``home`` (DAGSTER_HOME), serving the code location ``outfall``;
    None when none answers, or when the one that does serves another instance or other code."""
    if not home:
        return None
    server = Server(os.environ.get(URL_VARIABLE) or DEFAULT_URL)
    try:
        found = server.query(INSTANCE, timeout=3)
    except (OSError, ValueError, RuntimeError):
        return None
    info = str((found.get("instance") or {}).get("info") or "")
    names = {e["name"] for e in (found.get("workspaceOrError") or {}).get("locationEntries") or []}
    if LOCATION not in names or str(Path(home).resolve()) not in info:
        return None
    return server


# ---------------------------------------------------------------------------
# launching and waiting


def run_config(settings: dict, warehouse: Path, rules_dir: str, town: str) -> dict:
    """The command's own settings for the code location's resources (its folders, day and warehouse)."""
    rules = {"rules_dir": rules_dir, "town": town}
    return {
        "resources": {
            "duckdb": {"config": {"database": str(warehouse)}},
            "settings": {"config": {**settings, **rules}},
            "rules": {"config": rules},
        }
    }


def _tags(tags: dict) -> list[dict]:
    return [{"key": k, "value": str(v)} for k, v in tags.items()]


def launch_run(server: Server, keys: Iterable[str], config: dict, tags: dict) -> str:
    """A run of the implicit asset job over ``keys``, queued; its id."""
    params = {
        "selector": {
            "repositoryLocationName": LOCATION,
            "repositoryName": REPOSITORY,
            "jobName": ASSET_JOB,
            "assetSelection": [{"path": [k]} for k in keys],
        },
        "runConfigData": config,
        "executionMetadata": {"tags": _tags(tags)},
    }
    answer = server.query(LAUNCH_RUN, {"params": params})["launchRun"]
    if answer["__typename"] != "LaunchRunSuccess":
        raise RuntimeError(f"Dagster did not queue the run: {_said(answer)}")
    return answer["run"]["runId"]


def wait_for_run(server: Server, run_id: str, every: float = 0.5) -> str:
    while True:
        status = server.query(RUN_STATUS, {"id": run_id})["runOrError"]["status"]
        if status in RUN_DONE:
            return status
        time.sleep(every)


def stale(server: Server, keys: Iterable[str], partitions: dict[str, list[str]]) -> set[tuple[str, str]]:
    """The (asset, partition) pairs Dagster finds stale or missing (their code or what they read changed,
    or they were never made); ``partitions``: each partitioned asset's partitions to ask about."""
    found = set()
    nodes = server.query(STALE, {"keys": [{"path": [k]} for k in keys]})["assetNodes"]
    for node in nodes:
        key = node["assetKey"]["path"][-1]
        if not node["isPartitioned"]:
            if node["staleStatus"] != "FRESH":
                found.add((key, ""))
            continue
        asked = partitions.get(key) or []
        if not asked:
            continue
        answer = server.query(STALE_BY_PARTITION, {"key": {"path": [key]}, "partitions": asked})
        statuses = answer["assetNodeOrError"]["staleStatusByPartition"]
        found |= {(key, p) for p, status in zip(asked, statuses) if status != "FRESH"}
    return found


def launch_backfill(server: Server, pairs: set[tuple[str, str]], config: dict, tags: dict) -> str:
    """One backfill of ``pairs`` (asset, partition: '' for an unpartitioned asset), with the command's run
    config and tags; Dagster's backfill daemon runs it, each kind of partition after what it reads."""
    by_asset: dict[str, list[str]] = {}
    for asset, partition in sorted(pairs):
        by_asset.setdefault(asset, []).append(partition)
    selectors = []
    for asset, keys in by_asset.items():
        ranges = [{"start": k, "end": k} for k in keys if k]
        selectors.append(
            {"assetKey": {"path": [asset]}, "partitions": {"ranges": ranges} if ranges else None}
        )
    params = {
        "partitionsByAssets": selectors,
        "runConfigData": config,
        "tags": _tags(tags),
        "title": "outfall run",
    }
    answer = server.query(LAUNCH_BACKFILL, {"params": params})["launchPartitionBackfill"]
    if answer["__typename"] != "LaunchBackfillSuccess":
        raise RuntimeError(f"Dagster did not launch the backfill: {_said(answer)}")
    return answer["backfillId"]


def wait_for_backfill(server: Server, backfill_id: str, every: float = 1.0) -> list[str]:
    """The backfill's runs once it has ended (and they have)."""
    while True:
        state = server.query(BACKFILL, {"id": backfill_id})["partitionBackfillOrError"]
        if state["status"] in BACKFILL_DONE and all(r["status"] in RUN_DONE for r in state["runs"]):
            return [r["runId"] for r in state["runs"]]
        time.sleep(every)


def events_of(server: Server, run_id: str) -> list[dict]:
    """Every event of a run that says what it made, what failed and which checks found problems."""
    found, cursor = [], None
    while True:
        page = server.query(EVENTS, {"id": run_id, "cursor": cursor})["logsForRun"]
        found += page["events"]
        if not page.get("hasMore"):
            return found
        cursor = page["cursor"]


def _said(answer: dict) -> str:
    errors = answer.get("errors") or []
    return answer.get("message") or "; ".join(e.get("message", "") for e in errors) or answer["__typename"]
