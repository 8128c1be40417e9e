"""An agent's `output_schema` as ADK 2.5.0 uses it, read from the module's source with `ast` (nothing is run).

For a pydantic model class it gives what ADK sends: the class's JSON Schema (`model_json_schema()`, the response
schema of an agent without tools) and the parameters of the `set_model_response` tool ADK gives an agent with tools
(each field as a keyword-only parameter annotated with the field's type alone, so every one is required and none keeps
its description: `create_model("set_model_responseParams", ...)`).
"""

from pydantic_schema import CLASSES, DEFS, Unsupported, class_schema, field_schema, model_fields, name_of, last, ordered, use_module


def read_schema(parse_module, no_module, roots, name):
  module_name, _, attribute = name.rpartition(".")
  try:
    path, tree = parse_module(roots, module_name)
  except no_module as why:
    return {"error": str(why)}
  use_module(tree)
  kind = CLASSES.get(attribute, (None,))[0]
  if kind != "model":
    what = ("an " if kind == "enum" else "a ") + kind if kind is not None else "not a class defined at the top of " + path
    return {"error": attribute + " is " + what + "; an output_schema names a pydantic model class (class " + attribute + "(BaseModel))"}
  try:
    return {"schema": model_schema(attribute), "parameters": response_parameters(attribute)}
  except Unsupported as why:
    return {"error": attribute + ": " + str(why)}


def model_schema(name):
  DEFS.clear()
  schema = class_schema(name)
  if name in DEFS:
    # A model that refers to itself: pydantic puts it under $defs too and refers to it from the top.
    return ordered({"$defs": dict(DEFS), "$ref": "#/$defs/" + name})
  if DEFS:
    schema = dict(schema, **{"$defs": dict(DEFS)})
  return ordered(schema)


def response_parameters(name):
  DEFS.clear()
  node = CLASSES[name][1]
  fields = []
  for base in node.bases:
    base_name = last(name_of(base))
    if base_name in CLASSES and CLASSES[base_name][0] == "model":
      fields += model_fields(CLASSES[base_name][1])
  fields += model_fields(node)
  properties = {}
  for field_name, annotation, _default in fields:
    properties[field_name], _needed = field_schema(field_name, annotation, None)
  schema = {"properties": properties, "title": "set_model_responseParams", "type": "object"}
  if properties:
    schema["required"] = list(properties)
  if DEFS:
    schema["$defs"] = dict(DEFS)
  return ordered(schema)
