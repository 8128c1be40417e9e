"""Runs one Python function tool that an ADK agent file names, for agentctx.

Reads {"roots": [...], "module": "pkg.module", "function": "name", "args": {...}, "state": {...}, "context": {...}} as
JSON on standard input, imports the module (from the first root that holds it, as ADK imports it from the folder
above the agent's), calls the function with the model's arguments — and a tool context when it takes one — and writes
{"result": ..., "stateDelta": {...}, "actions": {...}, "standIns": [...]} (or {"error": "..."}) as JSON on standard
output. One process per call: a tool that hangs or crashes takes nothing else with it.

Real tools and the modules that hold them import `google.adk` (tools.tool_context, agents, examples, events) and
`google.genai.types`. Where those packages are installed they are used; otherwise minimal stand-ins are provided
(ToolContext with its state and actions, which tools use; the other classes keep what they are made with, so a module
that builds an agent or examples at its top still imports), and `standIns` names them.
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


class StandIn:
  """A stand-in for one of ADK's or google-genai's classes: keeps what it is made with, and may be subclassed."""

  def __init__(self, *args, **fields):
    self.args = args
    for key, value in fields.items():
      setattr(self, key, value)


class StandInPart(StandIn):
  def __init__(self, text=None, **fields):
    super().__init__(text=text, **fields)

  @classmethod
  def from_text(cls, text=None, **_):
    return cls(text=text)

  @classmethod
  def from_function_call(cls, name=None, args=None, **_):
    return cls(function_call=StandIn(name=name, args=args))

  @classmethod
  def from_function_response(cls, name=None, response=None, **_):
    return cls(function_response=StandIn(name=name, response=response))


class StandInContent(StandIn):
  def __init__(self, role=None, parts=None, **fields):
    super().__init__(role=role, parts=parts or [], **fields)


def content_of(role):
  def made(parts=None, **fields):
    items = parts if isinstance(parts, list) else [parts] if parts is not None else []
    return StandInContent(role=role, parts=[StandInPart(text=item) if isinstance(item, str) else item for item in items], **fields)
  return made


def stand_in(name):
  return type(name, (StandIn,), {})


def module(name, **attributes):
  made = pytypes.ModuleType(name)
  made.__dict__.update(attributes)
  made.__path__ = []
  return made


# What agent modules import of google-adk (the samples' every `from google.adk… import …`), by module.
ADK_STAND_INS = {
  "google.adk": {},
  "google.adk.agents": {"BaseAgent": stand_in("BaseAgent"), "LlmAgent": stand_in("LlmAgent"), "Agent": stand_in("Agent")},
  "google.adk.agents.base_agent_config": {"BaseAgentConfig": stand_in("BaseAgentConfig")},
  "google.adk.agents.invocation_context": {"InvocationContext": stand_in("InvocationContext")},
  "google.adk.events": {},
  "google.adk.events.event": {"Event": stand_in("Event")},
  "google.adk.examples": {},
  "google.adk.examples.example": {"Example": stand_in("Example")},
  "google.adk.tools": {"ToolContext": StandInToolContext},
  "google.adk.tools.tool_context": {"ToolContext": StandInToolContext},
  "google.adk.tools.example_tool": {"ExampleTool": stand_in("ExampleTool")},
}


def provide_stand_ins():
  """Stand-ins for the google packages a tool's module imports, only where they are not installed."""
  provided = []
  try:
    importlib.import_module("google.adk.tools.tool_context")
  except Exception:
    sys.modules.setdefault("google", module("google"))
    for name, attributes in ADK_STAND_INS.items():
      sys.modules[name] = module(name, **attributes)
    provided.append("google.adk")
  try:
    importlib.import_module("google.genai.types")
  except Exception:
    sys.modules.setdefault("google", module("google"))
    genai_types = module(
        "google.genai.types",
        Content=StandInContent,
        Part=StandInPart,
        UserContent=content_of("user"),
        ModelContent=content_of("model"),
        FunctionCall=stand_in("FunctionCall"),
        FunctionResponse=stand_in("FunctionResponse"),
    )
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
