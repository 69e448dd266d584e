// How many parameters a model has, as its name says: open models carry their size in their names
// (`qwen2.5-coder-1.5b`, `qwen2.5-coder:1.5b`, `Llama-3.2-3B-Instruct`). Hosted models' names say none.

// A number followed by "b", standing alone between separators: "-1.5b", ":7b", "_32B-"; not "x7b" (a mixture's
// experts) nor the "2.5" of "qwen2.5".
const sizeInName = /(?:^|[-_:/.])(\d+(?:\.\d+)?)b(?=$|[-_:/.])/i;

/** The parameters in billions the model's name says (the part after `provider:`), or undefined when it says none. */
export function parametersInName(model: string): number | undefined {
  const name = model.includes(':') ? model.slice(model.indexOf(':') + 1) : model;
  const found = sizeInName.exec(name.replace(/\.gguf$/i, ''));
  return found?.[1] === undefined ? undefined : Number(found[1]);
}
