import { ValidationError } from '../../contracts/errors/validation-error.js';
import { PyFloat } from '../python/python-values.js';

export type ParseDocumentOptions = {
  /** Named in errors. */
  filename: string;
  /**
   * Keep Python's distinction between `1` and `1.0`: floats written with a point or an exponent become `PyFloat`,
   * integers too big for a JavaScript number become bigints. For `valueFormat: python` case files.
   */
  pythonNumbers?: boolean;
};

/** Parses YAML or JSON text (JSON is read as YAML 1.2, of which it is a subset). Syntax errors name the line and column. */
export async function parseDocument(text: string, options: ParseDocumentOptions): Promise<unknown> {
  const yaml = await import('yaml');
  const document = yaml.parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (document.errors.length > 0) {
    throw new ValidationError({
      subject: options.filename,
      issues: document.errors.map((error) => ({
        path: error.linePos === undefined ? '' : `line ${error.linePos[0].line}, column ${error.linePos[0].col}`,
        message: firstLine(error.message),
      })),
      hint: 'Fix the YAML/JSON syntax at that position.',
    });
  }
  // A block scalar (`|`, `>`) that ends the text without a final line break has none in its value either: the YAML
  // spec's reading, and PyYAML's (so ADK's); the yaml package adds one. Only the scalar that ends the text can be it.
  if (!/[\n\r]$/.test(text)) {
    yaml.visit(document, {
      Scalar(_key, node) {
        const block = node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED';
        if (block && node.range?.[1] === text.length && typeof node.value === 'string' && node.value.endsWith('\n'))
          node.value = node.value.slice(0, -1);
      },
    });
  }
  if (options.pythonNumbers === true) {
    yaml.visit(document, {
      Scalar(_key, node) {
        if (typeof node.value !== 'number' || typeof node.source !== 'string') return;
        const source = node.source.trim();
        if (/^[-+]?\d+$/.test(source)) {
          if (!Number.isSafeInteger(node.value)) node.value = BigInt(source);
        } else if (Number.isInteger(node.value) || /[.eE]|inf|nan/i.test(source)) {
          node.value = new PyFloat(node.value);
        }
      },
    });
  }
  try {
    return document.toJS({ maxAliasCount: 100 });
  } catch (error) {
    // An alias bomb (billion laughs) stops here, before it expands, as bad input rather than a crash.
    throw new ValidationError({
      subject: options.filename,
      issues: [{ path: '', message: `cannot be expanded: ${firstLine((error as Error).message)}` }],
      hint: 'Use fewer YAML aliases (*name); write the values out instead.',
      cause: error,
    });
  }
}

// Pretty messages end their first line with " at line L, column C:" and then quote the source; the path says that already.
function firstLine(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/ at line \d+, column \d+:?$/, '');
}
