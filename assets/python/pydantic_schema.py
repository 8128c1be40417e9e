"""JSON Schema of Python annotations as pydantic 2 writes it, read from the source with `ast` (nothing is run).

Used by declare_tools.py: a function's parameters as ADK's FunctionTool declares them, with the module's own pydantic
models, dataclasses and enums gathered under `$defs`.
"""

import ast
import inspect

SCALARS = {"int": "integer", "str": "string", "float": "number", "bool": "boolean"}


class Unsupported(Exception):
  pass


def name_of(node):
  """The dotted name an annotation node spells (`typing.Optional`, `list`), or None."""
  if isinstance(node, ast.Name):
    return node.id
  if isinstance(node, ast.Attribute):
    inner = name_of(node.value)
    return None if inner is None else inner + "." + node.attr
  return None


def last(name):
  return None if name is None else name.split(".")[-1]


def schema_of(node):
  """Pydantic's JSON Schema for an annotation (without the title and default of the field)."""
  if node is None:
    return {}
  if isinstance(node, ast.Constant) and isinstance(node.value, str):
    return schema_of(ast.parse(node.value, mode="eval").body)
  if isinstance(node, ast.Constant) and node.value is None:
    return {"type": "null"}
  if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
    return union([node.left, node.right])
  simple = last(name_of(node))
  if simple is not None and not isinstance(node, ast.Subscript):
    if isinstance(node, ast.Name) and simple in CLASSES:
      return reference(simple)
    if simple in SCALARS:
      return {"type": SCALARS[simple]}
    if simple in ("list", "List", "Sequence", "tuple", "Tuple", "set", "Set"):
      return {"items": {}, "type": "array"} if simple not in ("set", "Set") else {"items": {}, "type": "array", "uniqueItems": True}
    if simple in ("dict", "Dict", "Mapping"):
      return {"additionalProperties": True, "type": "object"}
    if simple == "Any":
      return {}
    raise Unsupported("the annotation " + ast.unparse(node) + " (" + READ + ")")
  if isinstance(node, ast.Subscript):
    outer = last(name_of(node.value))
    args = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    if outer in ("list", "List", "Sequence"):
      return {"items": schema_of(args[0]), "type": "array"}
    if outer in ("tuple", "Tuple"):
      if len(args) == 2 and isinstance(args[1], ast.Constant) and args[1].value is Ellipsis:
        return {"items": schema_of(args[0]), "type": "array"}
      return {"maxItems": len(args), "minItems": len(args), "prefixItems": [schema_of(arg) for arg in args], "type": "array"}
    if outer in ("set", "Set"):
      return {"items": schema_of(args[0]), "type": "array", "uniqueItems": True}
    if outer in ("dict", "Dict", "Mapping"):
      # pydantic writes values of any kind as `true`.
      values = schema_of(args[1]) if len(args) > 1 else {}
      return {"additionalProperties": values if values != {} else True, "type": "object"}
    if outer == "Optional":
      return union([args[0], ast.Constant(value=None)])
    if outer == "Union":
      return union(args)
    if outer == "Literal":
      values = [arg.value for arg in args if isinstance(arg, ast.Constant)]
      if len(values) == 1:
        return with_type({"const": values[0]}, values)
      return with_type({"enum": values}, values)
  raise Unsupported("the annotation " + ast.unparse(node) + " (" + READ + ")")


def with_type(schema, values):
  kinds = {type(value) for value in values}
  if len(kinds) == 1:
    kind = kinds.pop()
    name = {str: "string", int: "integer", float: "number", bool: "boolean"}.get(kind)
    if name is not None:
      schema["type"] = name
  return schema


def union(nodes):
  members = [schema_of(node) for node in nodes]
  return {"anyOf": members}


READ = "read without running the module: built-in types, lists, dicts, Optional, Union, Literal, and the module's own pydantic models, dataclasses and enums"

# The module's own classes a signature may name (pydantic models, dataclasses, enums), by name, and the `$defs` made
# of those a declaration uses; set for each module (`use_module`) and each declaration (`declare`).
CLASSES = {}
DEFS = {}


def use_module(tree):
  CLASSES.clear()
  for node in tree.body:
    if not isinstance(node, ast.ClassDef):
      continue
    bases = {last(name_of(base)) for base in node.bases}
    decorators = {last(name_of(d.func if isinstance(d, ast.Call) else d)) for d in node.decorator_list}
    if bases & {"Enum", "IntEnum", "StrEnum"}:
      CLASSES[node.name] = ("enum", node)
    elif "dataclass" in decorators:
      CLASSES[node.name] = ("dataclass", node)
    elif "BaseModel" in bases or bases & {name for name, (kind, _) in CLASSES.items() if kind == "model"}:
      CLASSES[node.name] = ("model", node)


def reference(name):
  """A `$ref` to the class's schema, which joins `$defs` (pydantic gathers every class a declaration uses there)."""
  if name not in DEFS:
    DEFS[name] = None  # a class that names itself refers to the one being made
    DEFS[name] = class_schema(name)
  return {"$ref": "#/$defs/" + name}


def explicit_doc(node):
  doc = ast.get_docstring(node, clean=False)
  return None if doc is None else inspect.cleandoc(doc)


def enum_value(node):
  """An enum member written as a default (`Color.RED`): its value."""
  if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and CLASSES.get(node.value.id, ("",))[0] == "enum":
    for item in CLASSES[node.value.id][1].body:
      if isinstance(item, ast.Assign) and any(isinstance(t, ast.Name) and t.id == node.attr for t in item.targets):
        return True, literal(item.value)[1]
  return False, None


def class_schema(name):
  kind, node = CLASSES[name]
  doc = explicit_doc(node)
  if kind == "enum":
    values = []
    for item in node.body:
      if isinstance(item, ast.Assign) and all(isinstance(t, ast.Name) and not t.id.startswith("_") for t in item.targets):
        known, value = literal(item.value)
        if not known:
          raise Unsupported("the enum " + name + " (a member is not a literal: " + ast.unparse(item.value) + ")")
        values.append(value)
    schema = with_type({"enum": values, "title": name}, values)
  else:
    # A model's fields, in the order written (its bases' first): annotated names, not ClassVars or private ones.
    fields = []
    for base in node.bases:
      base_name = last(name_of(base))
      if base_name in CLASSES and CLASSES[base_name][0] == kind:
        fields += model_fields(CLASSES[base_name][1])
    fields += model_fields(node)
    properties, required = {}, []
    for field_name, annotation, default in fields:
      properties[field_name], needed = field_schema(field_name, annotation, default)
      if needed:
        required.append(field_name)
    schema = {"properties": properties, "title": name, "type": "object"}
    if required:
      schema["required"] = required
  if doc:
    schema["description"] = doc
  return ordered(schema)


def model_fields(node):
  out = []
  for item in node.body:
    if not isinstance(item, ast.AnnAssign) or not isinstance(item.target, ast.Name):
      continue
    if item.target.id.startswith("_") or item.target.id == "model_config" or last(name_of(item.annotation.value if isinstance(item.annotation, ast.Subscript) else item.annotation)) == "ClassVar":
      continue
    out.append((item.target.id, item.annotation, item.value))
  return out


def field_schema(name, annotation, default):
  """A field's schema, as pydantic writes it, and whether it is required."""
  field = dict(schema_of(annotation))
  title = title_of(name)
  extra = {}
  needed = default is None
  if isinstance(default, ast.Call) and last(name_of(default.func)) in ("Field", "field"):
    keywords = {k.arg: k.value for k in default.keywords if k.arg is not None}
    given = default.args[0] if default.args else keywords.get("default")
    factory = keywords.get("default_factory")
    needed = factory is None and (given is None or (isinstance(given, ast.Constant) and given.value is Ellipsis))
    default = None if needed or factory is not None else given
    for key in ("description", "title"):
      if key in keywords:
        known, value = literal(keywords[key])
        if known:
          extra[key] = value
    title = extra.pop("title", title)
  if default is not None:
    known, value = enum_value(default)
    if not known:
      known, value = literal(default)
    if not known:
      raise Unsupported("the default of " + name + " (" + ast.unparse(default) + ") is not a literal")
    field["default"] = value
  # pydantic leaves the title out of a field that is a class of its own, or an optional one.
  refers = "$ref" in field or (
      list(field.get("anyOf", [])) != [] and len(field["anyOf"]) == 2 and {"type": "null"} in field["anyOf"] and any("$ref" in m for m in field["anyOf"]))
  if not refers:
    field["title"] = title
  field.update(extra)
  return field, needed


def title_of(name):
  # pydantic's default title of a field: its name, words capitalised, underscores as spaces.
  return name.replace("_", " ").title().strip()


def literal(node):
  try:
    return True, ast.literal_eval(node)
  except ValueError:
    return False, None


def ordered(schema):
  """Keys sorted as pydantic sorts them: recursively, except the names under `properties` and values of `default`."""
  if isinstance(schema, list):
    return [ordered(item) for item in schema]
  if not isinstance(schema, dict):
    return schema
  out = {}
  for key in sorted(schema):
    value = schema[key]
    if key == "properties":
      out[key] = {name: ordered(field) for name, field in value.items()}
    elif key == "default":
      out[key] = value
    else:
      out[key] = ordered(value)
  return out
