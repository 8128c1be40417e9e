// The shell commands the README shows, read from its fenced blocks, with the output it claims for each: `$ ` lines in
// `text` blocks (the lines after one, up to the next, are its output) and every line of `sh` blocks.

export type ReadmeCommand = {
  /** 1-based line in the README. */
  line: number;
  /** The command as written, without `$ ` and a trailing `# comment`. */
  text: string;
  /** Environment assignments before the program (`AGENTCTX_TOKEN=secret npx …`). */
  env: Record<string, string>;
  /** The program and its arguments, after shell quoting is undone. */
  words: string[];
  /** The lines the README shows as its output. */
  output: string[];
};

export function readmeCommands(markdown: string): ReadmeCommand[] {
  const lines = markdown.split('\n');
  const commands: ReadmeCommand[] = [];
  let fence: string | undefined;
  let current: ReadmeCommand | undefined;
  for (const [index, line] of lines.entries()) {
    const opening = /^```(\w*)\s*$/.exec(line);
    if (opening !== null) {
      fence = fence === undefined ? opening[1] || 'plain' : undefined;
      current = undefined;
      continue;
    }
    if (fence === 'text' && line.startsWith('$ ')) {
      current = command(line.slice(2), index + 1);
      commands.push(current);
    } else if (fence === 'text' && current !== undefined) {
      current.output.push(line);
    } else if (fence === 'sh' && line.trim() !== '' && !line.trimStart().startsWith('#')) {
      commands.push(command(line, index + 1));
    }
  }
  return commands;
}

function command(written: string, line: number): ReadmeCommand {
  const text = written.replace(/\s+#\s.*$/, '').trim();
  const words = shellWords(text);
  const env: Record<string, string> = {};
  while (words.length > 0 && /^[A-Z_][A-Z0-9_]*=/.test(words[0] as string)) {
    const [name, ...value] = (words.shift() as string).split('=');
    env[name as string] = value.join('=');
  }
  return { line, text, env, words, output: [] };
}

/** Splits a command line as a POSIX shell would, for the quoting the README uses: '…', "…" and backslashes. */
export function shellWords(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (char === ' ' || char === '\t') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (char === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unclosed ' in: ${text}`);
      word = (word ?? '') + text.slice(i + 1, end);
      i = end;
    } else if (char === '"') {
      let value = '';
      for (i += 1; i < text.length && text[i] !== '"'; i++)
        value += text[i] === '\\' && /["\\$`]/.test(text[i + 1] ?? '') ? (text[++i] as string) : text[i];
      if (i >= text.length) throw new Error(`unclosed " in: ${text}`);
      word = (word ?? '') + value;
    } else if (char === '\\') {
      word = (word ?? '') + (text[++i] ?? '');
    } else {
      word = (word ?? '') + char;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}
