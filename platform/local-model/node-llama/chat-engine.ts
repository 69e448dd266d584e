// One GGUF model loaded by node-llama-cpp (CPU only, its prebuilt binary, never a build or a download), answering
// one chat request at a time on one context sequence: the prompt rendered by the GGUF's own chat template, the tokens
// the sequence already holds reused (each of the coder's requests begins with the bytes of the one before), generation
// stopped by the end-of-generation token, the output limit or the caller's abort.
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ggufString, readGgufMetadata } from '../gguf-metadata.js';
import type { ChatRequest } from './chat-request.js';

// The parts of node-llama-cpp 3.x this uses (it is installed in the model cache, not among taskloop's packages).
type Token = number;
interface Sequence {
  readonly contextTokens: Token[];
  readonly nextTokenIndex: number;
  eraseContextTokenRanges(ranges: { start: number; end: number }[]): Promise<void>;
  evaluate(
    tokens: Token[],
    options: { temperature?: number; seed?: number; topK?: number; topP?: number; minP?: number },
  ): AsyncGenerator<Token, void, void>;
}
interface Model {
  tokenize(text: string, specialTokens?: boolean): Token[];
  detokenize(tokens: readonly Token[], specialTokens?: boolean): string;
  isEogToken(token: Token | undefined): boolean;
  createContext(options: { contextSize: number; threads: number; sequences: number }): Promise<{
    readonly contextSize: number;
    getSequence(): Sequence;
  }>;
}
interface NodeLlamaCpp {
  getLlama(options: {
    gpu: false;
    build: 'never';
    skipDownload: true;
    usePrebuiltBinaries: true;
    logLevel: string;
  }): Promise<{ loadModel(options: { modelPath: string; gpuLayers: 0 }): Promise<Model> }>;
}
interface Jinja {
  Template: new (template: string) => { render(items: Record<string, unknown>): string };
}

/** What one request produced, with llama-server's `timings` figures. */
export interface Generation {
  text: string;
  promptTokens: number;
  /** Prompt tokens the sequence already held (not read again). */
  cachedTokens: number;
  completionTokens: number;
  finish: 'stop' | 'length' | 'aborted';
  promptMs: number;
  generationMs: number;
}

export interface ChatEngine {
  readonly contextSize: number;
  /** Whether a request runs now, and the prompt and generated tokens of the latest one: what `/slots` reports. */
  readonly slot: { processing: boolean; promptTokens: number; decoded: number };
  /** Renders and tokenizes `request`: its prompt tokens (to refuse one over the context before it runs). */
  promptTokens(request: ChatRequest): Token[];
  generate(request: ChatRequest, tokens: Token[], signal: AbortSignal): Promise<Generation>;
}

/** llama-server's sampling defaults, so a request that sets only the temperature samples as it did there. */
const SAMPLING = { topK: 40, topP: 0.95, minP: 0.05, temperature: 0.8 } as const;

/** Imports `specifier` as the runtime folder's own node_modules resolve it. */
async function importFrom<T>(runtimeDir: string, specifier: string): Promise<T> {
  const resolved = createRequire(path.join(runtimeDir, 'package.json')).resolve(specifier);
  return (await import(pathToFileURL(resolved).href)) as T;
}

/** The node-llama-cpp entry (ESM only, so resolved by its path). */
async function importNodeLlamaCpp(runtimeDir: string): Promise<NodeLlamaCpp> {
  const entry = path.join(runtimeDir, 'node_modules', 'node-llama-cpp', 'dist', 'index.js');
  return (await import(pathToFileURL(entry).href)) as NodeLlamaCpp;
}

const commonPrefix = (a: readonly Token[], b: readonly Token[]): number => {
  let index = 0;
  while (index < a.length && index < b.length && a[index] === b[index]) index++;
  return index;
};

/** Loads the model on the CPU with node-llama-cpp's prebuilt binary (never a build or a download) and one sequence. */
async function openContext(options: { runtimeDir: string; model: string; contextSize: number; threads: number }) {
  const { getLlama } = await importNodeLlamaCpp(options.runtimeDir);
  const llama = await getLlama({
    gpu: false,
    build: 'never',
    skipDownload: true,
    usePrebuiltBinaries: true,
    logLevel: 'warn',
  });
  const model = await llama.loadModel({ modelPath: options.model, gpuLayers: 0 });
  const context = await model.createContext({
    contextSize: options.contextSize,
    threads: options.threads,
    sequences: 1,
  });
  return { model, context };
}

export async function loadChatEngine(options: {
  runtimeDir: string;
  model: string;
  contextSize: number;
  threads: number;
}): Promise<ChatEngine> {
  const template = ggufString(await readGgufMetadata(options.model), 'tokenizer.chat_template');
  if (template === undefined) throw new Error(`${options.model} carries no chat template (tokenizer.chat_template)`);
  const { Template } = await importFrom<Jinja>(options.runtimeDir, '@huggingface/jinja');
  const chatTemplate = new Template(template);
  const { model, context } = await openContext(options);
  const sequence = context.getSequence();
  const slot: ChatEngine['slot'] = { processing: false, promptTokens: 0, decoded: 0 };

  const render = (request: ChatRequest) =>
    chatTemplate.render({
      messages: request.messages,
      ...(request.tools.length === 0 ? {} : { tools: request.tools }),
      add_generation_prompt: true,
      bos_token: '',
      eos_token: '',
    });

  return {
    contextSize: context.contextSize,
    slot,
    promptTokens: (request) => model.tokenize(render(request), true),
    async generate(request, tokens, signal) {
      const started = performance.now();
      // At least the last prompt token is evaluated again: its logits give the first reply token.
      const reused = Math.min(commonPrefix(sequence.contextTokens, tokens), tokens.length - 1);
      if (reused < sequence.nextTokenIndex)
        await sequence.eraseContextTokenRanges([{ start: reused, end: sequence.nextTokenIndex }]);
      const limit = Math.min(request.maxTokens ?? Infinity, context.contextSize - tokens.length);
      const output: Token[] = [];
      let firstTokenAt: number | undefined;
      let finish: Generation['finish'] = 'stop';
      Object.assign(slot, { processing: true, promptTokens: tokens.length, decoded: 0 });
      try {
        for await (const token of sequence.evaluate(tokens.slice(reused), {
          ...SAMPLING,
          ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
          ...(request.topP === undefined ? {} : { topP: request.topP }),
          ...(request.seed === undefined ? {} : { seed: request.seed }),
        })) {
          firstTokenAt ??= performance.now();
          if (signal.aborted) {
            finish = 'aborted';
            break;
          }
          // The sequence ends by itself at an end-of-generation token; this is for one yielded all the same.
          if (model.isEogToken(token)) break;
          output.push(token);
          slot.decoded = output.length;
          if (output.length >= limit) {
            finish = 'length';
            break;
          }
        }
      } finally {
        slot.processing = false;
      }
      const ended = performance.now();
      return {
        text: model.detokenize(output),
        promptTokens: tokens.length,
        cachedTokens: reused,
        completionTokens: output.length,
        finish: signal.aborted ? 'aborted' : finish,
        promptMs: (firstTokenAt ?? ended) - started,
        generationMs: ended - (firstTokenAt ?? ended),
      };
    },
  };
}
