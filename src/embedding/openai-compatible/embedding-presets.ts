/**
 * @module Named starting points for the OpenAI-compatible embedder, so config can say `preset: openai`
 * instead of a URL. Self-hosted servers need no preset: Ollama (`http://127.0.0.1:11434/v1`), LM Studio
 * (`http://127.0.0.1:1234/v1`), llama.cpp server (`http://127.0.0.1:8080/v1`, started with `--embeddings`),
 * vLLM (`http://127.0.0.1:8000/v1`) and Hugging Face TEI (`http://127.0.0.1:8080/v1`) all speak the same
 * `POST /embeddings` API; set `baseUrl` and `model` to what the server serves.
 */
import { ConfigError } from '../../errors/memory-pool-error.js';

export interface EmbeddingPreset {
  readonly baseUrl: string;
  /** Default model; config's `model` wins when set. */
  readonly model: string;
  /** Vector length of the default model, sent as `dimensions` (text-embedding-3-* can shorten on request). */
  readonly dimensions?: number;
  /** The environment variable users conventionally keep this provider's key in. */
  readonly apiKeyEnv: string;
}

const PRESETS = {
  // text-embedding-3-large at 3072 is st-qdrant-memory's default, so memories stay shareable with SillyTavern.
  openai: {
    baseUrl: 'https://api.openai.com/v1',
    model: 'text-embedding-3-large',
    dimensions: 3072,
    apiKeyEnv: 'OPENAI_API_KEY',
  },
  // OpenRouter proxies embedding models under `<vendor>/<model>` names.
  openrouter: {
    baseUrl: 'https://openrouter.ai/api/v1',
    model: 'openai/text-embedding-3-large',
    dimensions: 3072,
    apiKeyEnv: 'OPENROUTER_API_KEY',
  },
} as const satisfies Record<string, EmbeddingPreset>;

export type EmbeddingPresetName = keyof typeof PRESETS;

/** Every preset name, for config validation and docs. */
export const EMBEDDING_PRESET_NAMES = Object.keys(PRESETS) as EmbeddingPresetName[];

/** Returns the preset called `name` (case-insensitive); a ConfigError listing the choices otherwise. */
export function resolveEmbeddingPreset(name: string): EmbeddingPreset {
  const key = name.trim().toLowerCase();
  if (Object.hasOwn(PRESETS, key)) return PRESETS[key as EmbeddingPresetName];
  throw new ConfigError(
    'embedding.preset',
    `unknown preset "${name}"; use one of ${EMBEDDING_PRESET_NAMES.join(', ')}, or set embedding.baseUrl ` +
      'and embedding.model for any other OpenAI-compatible server (Ollama, LM Studio, llama.cpp, vLLM, TEI)',
  );
}
