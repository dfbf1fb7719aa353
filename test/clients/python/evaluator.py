"""The Python evaluator of the cross-client suite (test/clients/README.md, "The evaluator protocol").

CLIENT_KIND=sdk drives the official Unleash SDK (UnleashClient); CLIENT_KIND=ofrep drives the
OpenFeature SDK with its OFREP provider. Both are used as an application would use them: the
SDK configured from the CLIENT_* variables, polling and sending metrics on its own threads.

Standard output carries the protocol's JSON lines and nothing else: the libraries' logs and any
stray print go to standard error.
"""

import json
import logging
import os
import shutil
import sys
import tempfile
import threading
from importlib.metadata import version
from typing import Any, Callable, Dict, List, Optional

# Everything printed from here on goes to standard error; the protocol writes to the real stdout.
PROTOCOL_OUT = sys.stdout
sys.stdout = sys.stderr

logging.basicConfig(
    stream=sys.stderr,
    level=os.environ.get("CLIENT_LOG_LEVEL", "WARNING").upper(),
    format="%(asctime)s %(name)s %(levelname)s %(message)s",
)
LOGGER = logging.getLogger("evaluator")

# How long the SDK may take to fetch the flags the first time before the evaluator gives up and
# says it could not start: only reached when the service never answers the SDK with flags.
FIRST_FETCH_LIMIT_SECONDS = float(os.environ.get("CLIENT_READY_LIMIT_SECONDS", "120"))


def send(message: Dict[str, Any]) -> None:
    PROTOCOL_OUT.write(json.dumps(message, separators=(",", ":")) + "\n")
    PROTOCOL_OUT.flush()


def required(name: str) -> str:
    value = os.environ.get(name, "")
    if not value:
        raise ValueError(f"{name} is not set")
    return value


def whole_seconds(name: str) -> int:
    raw = required(name)
    try:
        seconds = int(raw)
    except ValueError as error:
        raise ValueError(f"{name} must be a whole number of seconds, got {raw!r}") from error
    if seconds < 1:
        raise ValueError(f"{name} must be at least 1, got {seconds}")
    return seconds


class UnleashSdkEvaluator:
    """The official Unleash SDK, polling the SDK API with a client token."""

    package = "UnleashClient"

    def __init__(self) -> None:
        # Imported here so that an OFREP evaluator never loads the SDK's native engine.
        from UnleashClient import UnleashClient  # noqa: PLC0415
        from UnleashClient.events import UnleashEventType  # noqa: PLC0415
        from UnleashClient.utils import InstanceAllowType  # noqa: PLC0415

        self._ready = threading.Event()

        def on_event(event: Any) -> None:
            if event.event_type == UnleashEventType.READY:
                self._ready.set()

        # The SDK keeps its last fetched flags in a file cache and starts from it when it exists:
        # a cache of this process's own, removed at exit, so that no run starts from another
        # run's flags and the ready line always follows a fetch from the service.
        self._cache_directory = tempfile.mkdtemp(prefix="unleash-python-evaluator-")
        self._client = UnleashClient(
            url=required("CLIENT_URL"),
            app_name=required("CLIENT_APP_NAME"),
            environment=required("CLIENT_ENVIRONMENT"),
            refresh_interval=whole_seconds("CLIENT_REFRESH_SECONDS"),
            metrics_interval=whole_seconds("CLIENT_METRICS_SECONDS"),
            custom_headers={"Authorization": required("CLIENT_TOKEN")},
            cache_directory=self._cache_directory,
            # One evaluator per process; the suite may run several processes with one app name.
            multiple_instance_mode=InstanceAllowType.SILENTLY_ALLOW,
            event_callback=on_event,
        )

    def start(self) -> None:
        # Registers, fetches once (synchronously) and schedules the polls and metrics sends.
        self._client.initialize_client()
        if not self._ready.wait(FIRST_FETCH_LIMIT_SECONDS):
            raise RuntimeError(
                f"the SDK fetched no flags within {FIRST_FETCH_LIMIT_SECONDS:g} s (see standard error)"
            )

    def evaluate(self, case: Dict[str, Any]) -> Dict[str, Any]:
        flag = case["flag"]
        context = unleash_context(case.get("context"))
        kind = case.get("type")
        if kind == "boolean":
            return {"enabled": self._client.is_enabled(flag, context)}
        if kind == "variant":
            variant = self._client.get_variant(flag, context)
            return {
                "variant": {
                    "name": variant.get("name"),
                    "enabled": variant.get("enabled"),
                    "payload": variant.get("payload"),
                    "featureEnabled": variant.get("feature_enabled"),
                }
            }
        raise ValueError(f"unknown sdk case type {kind!r}")

    def close(self) -> None:
        # destroy() sends the metrics counted since the last send before it stops the scheduler.
        try:
            self._client.destroy()
        finally:
            shutil.rmtree(self._cache_directory, ignore_errors=True)


def unleash_context(context: Optional[Dict[str, Any]]) -> Dict[str, Any]:
    """The protocol's context is Unleash's own; the SDK takes it as a dict with the same keys."""
    if context is None:
        return {}
    if not isinstance(context, dict):
        raise ValueError("context must be an object")
    return dict(context)


class OfrepEvaluator:
    """OpenFeature's SDK with the OFREP provider, one remote evaluation per flag evaluation."""

    package = "openfeature-provider-ofrep"

    def __init__(self) -> None:
        from openfeature import api  # noqa: PLC0415
        from openfeature.contrib.provider.ofrep import OFREPProvider  # noqa: PLC0415

        token = required("CLIENT_TOKEN")
        self._api = api
        # The token is sent as it is, the way the service's SDK tokens are sent by the SDKs.
        self._provider = OFREPProvider(
            required("CLIENT_URL"),
            headers_factory=lambda: {"Authorization": token},
        )

    def start(self) -> None:
        self._api.set_provider_and_wait(self._provider)
        self._client = self._api.get_client()

    def evaluate(self, case: Dict[str, Any]) -> Dict[str, Any]:
        flag = case["flag"]
        default = case.get("default")
        context = evaluation_context(case.get("context"))
        details = self._resolver(case.get("type"))(flag, default, context)
        return {
            "value": details.value,
            "variant": details.variant,
            "reason": None if details.reason is None else str(details.reason),
            "errorCode": None if details.error_code is None else str(details.error_code),
            "metadata": dict(details.flag_metadata or {}),
        }

    def _resolver(self, kind: Any) -> Callable[..., Any]:
        if kind == "boolean":
            return self._client.get_boolean_details
        if kind == "string":
            return self._client.get_string_details
        if kind == "number":
            # Python's OpenFeature SDK splits numbers into integers and floats; a JSON number is a
            # float in general (the specification's payloads include 1.2), so a number is asked
            # as one, and the provider's own type check decides what a whole number answers.
            return self._client.get_float_details
        if kind == "object":
            return self._client.get_object_details
        raise ValueError(f"unknown ofrep case type {kind!r}")

    def close(self) -> None:
        self._api.shutdown()


def evaluation_context(context: Optional[Dict[str, Any]]) -> Any:
    """The protocol's context is OpenFeature's already: targetingKey and flat attributes."""
    from openfeature.evaluation_context import EvaluationContext  # noqa: PLC0415

    if context is None:
        return EvaluationContext()
    if not isinstance(context, dict):
        raise ValueError("context must be an object")
    attributes = {key: value for key, value in context.items() if key != "targetingKey"}
    return EvaluationContext(targeting_key=context.get("targetingKey"), attributes=attributes)


EVALUATORS = {"sdk": UnleashSdkEvaluator, "ofrep": OfrepEvaluator}


def answer(evaluator: Any, request: Dict[str, Any]) -> bool:
    """Answers one request line; True when the request was to stop."""
    request_id = request.get("id")
    op = request.get("op")
    if op == "evaluate":
        cases: List[Dict[str, Any]] = request.get("cases")
        if not isinstance(cases, list):
            raise ValueError("evaluate needs a list of cases")
        send({"id": request_id, "results": [evaluator.evaluate(case) for case in cases]})
        return False
    if op == "stop":
        evaluator.close()
        send({"id": request_id, "stopped": True})
        return True
    raise ValueError(f"unknown op {op!r}")


def main() -> int:
    kind = os.environ.get("CLIENT_KIND", "")
    try:
        if kind not in EVALUATORS:
            raise ValueError(f"CLIENT_KIND must be sdk or ofrep, got {kind!r}")
        evaluator = EVALUATORS[kind]()
    except Exception as error:  # noqa: BLE001 - any failure to start is reported as the protocol says
        LOGGER.exception("could not configure the client")
        send({"ready": False, "error": f"{type(error).__name__}: {error}"})
        return 1
    try:
        evaluator.start()
    except Exception as error:  # noqa: BLE001
        LOGGER.exception("could not start")
        try:
            evaluator.close()
        except Exception:  # noqa: BLE001 - the start's own error is the one to report
            LOGGER.exception("could not close the client that failed to start")
        send({"ready": False, "error": f"{type(error).__name__}: {error}"})
        return 1

    send({"ready": True, "client": f"{evaluator.package}@{version(evaluator.package)}"})

    stopped = False
    try:
        for line in sys.stdin:
            if not line.strip():
                continue
            request_id = None
            try:
                request = json.loads(line)
                if not isinstance(request, dict):
                    raise ValueError("a request is a JSON object")
                request_id = request.get("id")
                stopped = answer(evaluator, request)
            except Exception as error:  # noqa: BLE001 - a failed request is answered, the evaluator goes on
                LOGGER.exception("request failed")
                send({"id": request_id, "error": f"{type(error).__name__}: {error}"})
            if stopped:
                break
    finally:
        if not stopped:
            evaluator.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
