"""Runs one Python function tool that an ADK agent file names, for agentctx.

Reads {"roots": [...], "module": "pkg.module", "function": "name", "args": {...}, "state": {...}, "context": {...}} as
JSON on standard input, imports the module (from the first root that holds it, as ADK imports it from the folder
above the agent's), calls the function with the model's arguments — and a tool context when it takes one — and writes
{"result": ..., "stateDelta": {...}, "actions": {...}, "standIns": [...]} (or {"error": "..."}) as JSON on standard
output. One process per call: a tool that hangs or crashes takes nothing else with it.

Real tools import `google.adk.tools.tool_context` and `google.genai.types`. Where those packages are installed they are
used; otherwise minimal stand-ins (ToolContext with its state and actions, `types.Content` and `types.Part`) are
provided, and `standIns` names them.
"""

import asyncio
import importlib
import inspect
import io
import json
import os
import sys
import types as pytypes


class State(dict):
  """The session state as a tool sees it: reads the snapshot, records every write as the delta."""

  def __init__(self, values):
    super().__init__(values)
    self.delta = {}

  def __setitem__(self, key, value):
    super().__setitem__(key, value)
    self.delta[key] = value

  def update(self, *args, **kwargs):
    for key, value in dict(*args, **kwargs).items():
      self[key] = value

  def to_dict(self):
    return dict(self)


class Actions:
  def __init__(self):
    self.escalate = None
    self.transfer_to_agent = None
    self.skip_summarization = None
    self.state_delta = {}


class StandInToolContext:
  """What tools use of ADK's ToolContext: state, actions and who is calling."""

  def __init__(self, state, context):
    self.state = state
    self.actions = Actions()
    self.function_call_id = context.get("functionCallId")
    self.agent_name = context.get("agentName")
    self.invocation_id = context.get("invocationId")


class StandInPart:
  def __init__(self, text=None, **fields):
    self.text = text
    for key, value in fields.items():
      setattr(self, key, value)

  @classmethod
  def from_text(cls, text=None, **_):
    return cls(text=text)


class StandInContent:
  def __init__(self, role=None, parts=None, **_):
    self.role = role
    self.parts = parts or []


def module(name, **attributes):
  made = pytypes.ModuleType(name)
  made.__dict__.update(attributes)
  made.__path__ = []
  return made


def provide_stand_ins():
  """Stand-ins for the google packages a tool imports, only where they are not installed."""
  provided = []
  try:
    importlib.import_module("google.adk.tools.tool_context")
  except Exception:
    sys.modules.setdefault("google", module("google"))
    sys.modules["google.adk"] = module("google.adk")
    sys.modules["google.adk.tools"] = module("google.adk.tools", ToolContext=StandInToolContext)
    sys.modules["google.adk.tools.tool_context"] = module("google.adk.tools.tool_context", ToolContext=StandInToolContext)
    sys.modules["google.adk.agents"] = module("google.adk.agents")
    provided.append("google.adk.tools.tool_context")
  try:
    importlib.import_module("google.genai.types")
  except Exception:
    sys.modules.setdefault("google", module("google"))
    genai_types = module("google.genai.types", Content=StandInContent, Part=StandInPart)
    sys.modules["google.genai"] = module("google.genai", types=genai_types)
    sys.modules["google.genai.types"] = genai_types
    provided.append("google.genai.types")
  return provided


def find_root(roots, dotted):
  parts = dotted.split(".")
  for root in roots:
    base = os.path.join(root, *parts)
    if os.path.isfile(base + ".py") or os.path.isfile(os.path.join(base, "__init__.py")):
      return root
  return None


def jsonable(value):
  if value is None or isinstance(value, (str, int, float, bool)):
    return value
  if isinstance(value, dict):
    return {str(key): jsonable(item) for key, item in value.items()}
  if isinstance(value, (list, tuple, set)):
    return [jsonable(item) for item in value]
  dump = getattr(value, "model_dump", None)
  if callable(dump):
    return jsonable(dump())
  return str(value)


def context_parameter(function):
  for name, parameter in inspect.signature(function).parameters.items():
    annotation = parameter.annotation
    label = getattr(annotation, "__name__", annotation if isinstance(annotation, str) else "")
    if name == "tool_context" or label == "ToolContext":
      return name
  return None


def main():
  request = json.load(sys.stdin)
  root = find_root(request["roots"], request["module"])
  if root is None:
    return {"error": "no module " + request["module"] + " under " + ", ".join(request["roots"])}
  sys.path.insert(0, root)
  stand_ins = provide_stand_ins()
  # What the tool prints must not mix with the answer on standard output.
  real_stdout = sys.stdout
  sys.stdout = io.StringIO()
  try:
    function = getattr(importlib.import_module(request["module"]), request["function"])
    state = State(request.get("state") or {})
    context = StandInToolContext(state, request.get("context") or {})
    args = dict(request.get("args") or {})
    name = context_parameter(function)
    if name is not None:
      args[name] = context
    result = function(**args)
    if inspect.isawaitable(result):
      result = asyncio.run(result)
  except Exception as error:  # the tool's own failure goes back to the model
    sys.stdout = real_stdout
    return {"error": type(error).__name__ + ": " + str(error), "standIns": stand_ins}
  finally:
    sys.stdout = real_stdout
  actions = {
    key: value
    for key, value in (
        ("escalate", context.actions.escalate),
        ("transferToAgent", context.actions.transfer_to_agent),
        ("skipSummarization", context.actions.skip_summarization),
    )
    if value is not None
  }
  delta = dict(state.delta)
  delta.update(context.actions.state_delta or {})
  return {"result": jsonable(result), "stateDelta": jsonable(delta), "actions": actions, "standIns": stand_ins}


if __name__ == "__main__":
  json.dump(main(), sys.stdout)
