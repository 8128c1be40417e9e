"""Declares Python function tools as ADK 2.5.0 declares them, without running any of the user's code.

Reads {"roots": [folder, ...], "names": ["pkg.module.function", ...]} as JSON on standard input and writes
{"declarations": {name: declaration or {"error": why}}} as JSON on standard output. With "objects" in place of
"names" it reads module-level objects (read_object); with "schemas", pydantic classes an output_schema names
(output_schema.py). A module is found under the first
root that holds it (pkg/module.py or pkg/module/__init__.py) and read with `ast`: nothing is imported or executed.

A declaration is what ADK's FunctionTool sends: the function's name, its docstring cleaned as `inspect.cleandoc`
cleans it, and the JSON Schema pydantic builds from the signature (`create_model(f"{name}Params", ...)`,
`model_json_schema()`: a title per parameter and for the whole, keys sorted as pydantic sorts them, the module's own
pydantic models, dataclasses and enums gathered under `$defs`; pydantic_schema.py writes them). The context
parameter (`tool_context`, or one annotated `ToolContext`) and `input_stream` are left out, as ADK leaves them out.
"""

import ast
import inspect
import json
import os
import sys

from pydantic_schema import DEFS, Unsupported, field_schema, last, literal, name_of, ordered, use_module


def find_module(roots, dotted):
  parts = dotted.split(".")
  for root in roots:
    base = os.path.join(root, *parts)
    for candidate in (base + ".py", os.path.join(base, "__init__.py")):
      if os.path.isfile(candidate):
        return candidate
  return None


class NoModule(Exception):
  pass


def parse_module(roots, module_name):
  """The module's path and syntax tree, found under the first root that holds it; NoModule says where it looked."""
  path = find_module(roots, module_name)
  if path is None:
    raise NoModule("no module " + module_name + " (looked for " + module_name.replace(".", "/") + ".py or its __init__.py under " + ", ".join(roots) + ")")
  with open(path, encoding="utf-8") as source:
    return path, ast.parse(source.read(), filename=path)


def is_context(arg):
  return arg.arg == "tool_context" or last(name_of(arg.annotation)) == "ToolContext"


def declare(function):
  args = function.args
  positional = args.posonlyargs + args.args
  defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
  fields = list(zip(positional, defaults)) + list(zip(args.kwonlyargs, args.kw_defaults))
  properties = {}
  required = []
  context = next((arg.arg for arg, _ in fields if is_context(arg)), "tool_context")
  DEFS.clear()
  for arg, default in fields:
    if arg.arg in (context, "input_stream"):
      continue
    properties[arg.arg], needed = field_schema(arg.arg, arg.annotation, default)
    if needed:
      required.append(arg.arg)
  declaration = {"name": function.name}
  doc = ast.get_docstring(function, clean=False)
  if doc:
    declaration["description"] = inspect.cleandoc(doc)
  if properties:
    schema = {"properties": properties, "title": function.name + "Params", "type": "object"}
    if required:
      schema["required"] = required
    if DEFS:
      schema["$defs"] = dict(DEFS)
    declaration["parameters"] = ordered(schema)
  return declaration


class NotData(Exception):
  pass


# google-genai's and ADK's data classes a tool object's arguments are built of (ExampleTool's examples, an agent's
# config), read as the dicts of their keyword arguments; the two content shorthands fix the role.
DATA_CLASSES = {"Example", "Content", "Part", "FunctionCall", "FunctionResponse", "GenerateContentConfig", "SafetySetting", "ThinkingConfig"}
CONTENT_ROLES = {"UserContent": "user", "ModelContent": "model"}


def content_parts(value):
  items = value if isinstance(value, list) else [value]
  return [{"text": item} if isinstance(item, str) else item for item in items]


def data(node):
  """A literal as `ast.literal_eval` reads it, with calls of the data classes above read as dicts; NotData if not one."""
  if isinstance(node, (ast.List, ast.Tuple)):
    return [data(item) for item in node.elts]
  if isinstance(node, ast.Dict):
    if any(key is None for key in node.keys):
      raise NotData()
    return {data(key): data(value) for key, value in zip(node.keys, node.values)}
  if isinstance(node, ast.Call):
    simple = last(name_of(node.func))
    if any(keyword.arg is None for keyword in node.keywords):
      raise NotData()
    kwargs = {keyword.arg: data(keyword.value) for keyword in node.keywords}
    args = [data(arg) for arg in node.args]
    if simple in CONTENT_ROLES and len(args) + len(kwargs) == 1:
      return {"role": CONTENT_ROLES[simple], "parts": content_parts(args[0] if args else kwargs.get("parts"))}
    if simple == "from_text" and len(args) + len(kwargs) == 1:
      return {"text": args[0] if args else kwargs.get("text")}
    if simple == "from_function_call" and not args:
      return {"function_call": kwargs}
    if simple == "from_function_response" and not args:
      return {"function_response": kwargs}
    if simple in DATA_CLASSES and not args:
      return kwargs
    raise NotData()
  try:
    return ast.literal_eval(node)
  except (ValueError, TypeError, SyntaxError):
    raise NotData()


def read_object(roots, name):
  """A module-level `name = Class(key=literal, ...)`, read from the source: the class and its literal arguments."""
  module_name, _, attribute = name.rpartition(".")
  try:
    path, tree = parse_module(roots, module_name)
  except NoModule as why:
    return {"error": str(why)}
  for node in tree.body:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
    if not any(isinstance(target, ast.Name) and target.id == attribute for target in targets):
      continue
    call = node.value
    if not isinstance(call, ast.Call):
      return {"error": attribute + " in " + path + " is not made by a constructor call"}
    arguments = {}
    unread = []
    for keyword in call.keywords:
      if keyword.arg is None:
        unread.append("**" + ast.unparse(keyword.value))
        continue
      try:
        arguments[keyword.arg] = data(keyword.value)
      except NotData:
        unread.append(keyword.arg)
    positional = []
    for index, arg in enumerate(call.args):
      try:
        positional.append(data(arg))
      except NotData:
        unread.append("argument " + str(index + 1))
    return {"class": last(name_of(call.func)), "arguments": arguments, "unread": unread, "positional": positional}
  return {"error": attribute + " is not assigned at the top of " + path}


def main():
  request = json.load(sys.stdin)
  roots = request["roots"]
  if "objects" in request:
    json.dump({"objects": {name: read_object(roots, name) for name in request["objects"]}}, sys.stdout)
    return
  if "schemas" in request:
    from output_schema import read_schema
    json.dump({"schemas": {name: read_schema(parse_module, NoModule, roots, name) for name in request["schemas"]}}, sys.stdout)
    return
  out = {}
  for name in request["names"]:
    module_name, _, attribute = name.rpartition(".")
    try:
      path, tree = parse_module(roots, module_name)
    except NoModule as why:
      out[name] = {"error": str(why)}
      continue
    found = [node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == attribute]
    if not found:
      # A tool object (`example_tool = ExampleTool(examples=[...])`): its class and literal arguments, for the caller.
      made = read_object(roots, name)
      if "error" not in made:
        out[name] = {"object": made}
      elif made["error"].endswith(" is not made by a constructor call"):
        out[name] = made
      else:
        out[name] = {"error": attribute + " is not a function or a tool object made at the top of " + path}
      continue
    try:
      use_module(tree)
      out[name] = declare(found[-1])
    except Unsupported as why:
      out[name] = {"error": attribute + ": " + str(why)}
  json.dump({"declarations": out}, sys.stdout)


if __name__ == "__main__":
  main()
