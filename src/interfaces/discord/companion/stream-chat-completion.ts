/** @module One streamed OpenAI-compatible chat completion (`stream: true`, server-sent events), read to its end. */
export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: string;
}

export interface ChatRequest {
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey?: string;
  readonly messages: readonly ChatMessage[];
  readonly timeoutMs: number;
  /** Called with each piece of text as it arrives (the typing indicator is kept up meanwhile). */
  readonly onDelta?: (text: string) => void;
}

/** The whole reply text; a refusal is an error quoting the API's answer (logged; Discord gets no reply). */
export async function streamChatCompletion(request: ChatRequest): Promise<string> {
  const response = await fetch(`${request.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      ...(request.apiKey ? { authorization: `Bearer ${request.apiKey}` } : {}),
    },
    body: JSON.stringify({ model: request.model, messages: request.messages, stream: true }),
    signal: AbortSignal.timeout(request.timeoutMs),
  });
  if (!response.ok || response.body === null) {
    const detail = (await response.text().catch(() => '')).slice(0, 300);
    throw new Error(`the chat API answered ${response.status}: ${detail}`);
  }
  let text = '';
  let buffered = '';
  const decoder = new TextDecoder();
  for await (const chunk of response.body) {
    buffered += decoder.decode(chunk, { stream: true });
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      const data = line.startsWith('data:') ? line.slice(5).trim() : '';
      if (data === '' || data === '[DONE]') continue;
      const delta = (JSON.parse(data) as { choices?: { delta?: { content?: string } }[] }).choices?.[0]?.delta
        ?.content;
      if (delta) {
        text += delta;
        request.onDelta?.(delta);
      }
    }
  }
  return text;
}
