// A scripted model on 127.0.0.1 that speaks the four wire formats the agent harnesses use:
// Anthropic Messages (SSE), OpenAI Responses (SSE), OpenAI chat completions (SSE or not) and
// Gemini generateContent / streamGenerateContent. It logs every request (so a test asserts what the
// model saw) and answers from a script: step i of the script is the reply to a request that already
// carries i tool results, so a conversation walks the script whatever the harness sends in between
// (title or classifier requests without tools get plain text; a denied call still gets a result).
//
// A step is { tool: name, input: {…} } (any tool: shell, edit, write…, as the harness names it;
// `custom: true` with a string input for a freeform tool of the Responses API, Codex's apply_patch),
// { tools: [{ tool, input }, …] } for parallel calls, or { text }; after the last step the model
// answers DONE_TEXT.
import http from 'node:http';

export const DONE_TEXT = 'All done.';

/** Reads a request body (JSON when it parses). */
function body(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', c => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        resolve(text ? JSON.parse(text) : {});
      } catch {
        resolve({ raw: text });
      }
    });
    req.on('error', reject);
  });
}

const asArray = v => (Array.isArray(v) ? v : []);

/** How many tool results the conversation in this request carries, per wire format. */
export function toolResultsIn(api, b) {
  switch (api) {
    case 'anthropic':
      return asArray(b.messages).flatMap(m => asArray(m.content)).filter(c => c && c.type === 'tool_result').length;
    case 'responses':
      return asArray(b.input).filter(i => i && /_output$/.test(String(i.type))).length;
    case 'chat':
      return asArray(b.messages).filter(m => m && m.role === 'tool').length;
    case 'gemini':
      return asArray(b.contents).flatMap(c => asArray(c.parts)).filter(p => p && p.functionResponse).length;
    default:
      return 0;
  }
}

/** Does this request offer tools (the agent's main loop, not a title or a classifier)? */
export function offersTools(api, b) {
  if (api === 'gemini') return asArray(b.tools).some(t => asArray(t.functionDeclarations).length > 0);
  return asArray(b.tools).length > 0;
}

/** Every text the request carries, flattened (for "did the model see X" assertions). */
export function requestText(b) {
  return JSON.stringify(b);
}

const sse = (res) => {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  return (event, data) => res.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
};

let ids = 0;
const id = prefix => `${prefix}_${Date.now().toString(36)}${(++ids).toString(36)}`;

function callsOf(step) {
  if (!step) return [];
  if (step.tools) return step.tools;
  if (step.tool) return [{ tool: step.tool, input: step.input ?? {}, custom: step.custom }];
  return [];
}

// ---- Anthropic Messages ----------------------------------------------------------------------
function anthropic(res, b, step) {
  const calls = callsOf(step);
  const text = calls.length ? '' : (step?.text ?? DONE_TEXT);
  const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const model = b.model || 'claude-mock';
  const blocks = [
    ...(text ? [{ type: 'text', text }] : []),
    ...calls.map(c => ({ type: 'tool_use', id: id('toolu'), name: c.tool, input: c.input ?? {} })),
  ];
  const stop = calls.length ? 'tool_use' : 'end_turn';
  if (!b.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: id('msg'), type: 'message', role: 'assistant', model, content: blocks, stop_reason: stop, stop_sequence: null, usage }));
    return;
  }
  const send = sse(res);
  send('message_start', { type: 'message_start', message: { id: id('msg'), type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage } });
  blocks.forEach((blk, index) => {
    if (blk.type === 'text') {
      send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: blk.text } });
    } else {
      send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: blk.id, name: blk.name, input: {} } });
      send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(blk.input) } });
    }
    send('content_block_stop', { type: 'content_block_stop', index });
  });
  send('message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 } });
  send('message_stop', { type: 'message_stop' });
  res.end();
}

// ---- OpenAI Responses ------------------------------------------------------------------------
function responses(res, b, step) {
  const calls = callsOf(step);
  const text = calls.length ? '' : (step?.text ?? DONE_TEXT);
  const respId = id('resp');
  const items = [
    ...(text ? [{ type: 'message', id: id('msg'), role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] }] : []),
    ...calls.map(c => c.custom
      ? { type: 'custom_tool_call', id: id('ctc'), call_id: id('call'), name: c.tool, input: String(c.input ?? ''), status: 'completed' }
      : { type: 'function_call', id: id('fc'), call_id: id('call'), name: c.tool, arguments: JSON.stringify(c.input ?? {}), status: 'completed' }),
  ];
  const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 };
  const response = status => ({ id: respId, object: 'response', created_at: Math.floor(Date.now() / 1000), status, model: b.model || 'gpt-mock', output: status === 'completed' ? items : [], usage: status === 'completed' ? usage : null });
  if (b.stream === false) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(response('completed')));
    return;
  }
  const send = sse(res);
  let seq = 0;
  send('response.created', { type: 'response.created', sequence_number: seq++, response: response('in_progress') });
  items.forEach((item, output_index) => {
    send('response.output_item.added', { type: 'response.output_item.added', sequence_number: seq++, output_index, item });
    if (item.type === 'message') {
      send('response.output_text.delta', { type: 'response.output_text.delta', sequence_number: seq++, item_id: item.id, output_index, content_index: 0, delta: item.content[0].text });
    }
    send('response.output_item.done', { type: 'response.output_item.done', sequence_number: seq++, output_index, item });
  });
  send('response.completed', { type: 'response.completed', sequence_number: seq++, response: response('completed') });
  res.end();
}

// ---- OpenAI chat completions -----------------------------------------------------------------
function chat(res, b, step) {
  const calls = callsOf(step);
  const text = calls.length ? null : (step?.text ?? DONE_TEXT);
  const cid = id('chatcmpl');
  const created = Math.floor(Date.now() / 1000);
  const model = b.model || 'gpt-mock';
  const toolCalls = calls.map((c, index) => ({ index, id: id('call'), type: 'function', function: { name: c.tool, arguments: JSON.stringify(c.input ?? {}) } }));
  const finish = calls.length ? 'tool_calls' : 'stop';
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  if (!b.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    const message = { role: 'assistant', content: text, ...(toolCalls.length ? { tool_calls: toolCalls.map(({ index: _i, ...t }) => t) } : {}) };
    res.end(JSON.stringify({ id: cid, object: 'chat.completion', created, model, choices: [{ index: 0, message, finish_reason: finish }], usage }));
    return;
  }
  const send = sse(res);
  const chunk = (delta, finish_reason = null, extra = {}) => ({ id: cid, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason }], ...extra });
  send('', chunk({ role: 'assistant', content: '' }));
  if (text) send('', chunk({ content: text }));
  for (const t of toolCalls) send('', chunk({ tool_calls: [t] }));
  send('', chunk({}, finish, b.stream_options?.include_usage ? {} : { usage }));
  if (b.stream_options?.include_usage) send('', { id: cid, object: 'chat.completion.chunk', created, model, choices: [], usage });
  send('', '[DONE]');
  res.end();
}

// ---- Gemini generateContent ------------------------------------------------------------------
function gemini(res, b, step, streaming, aux) {
  const calls = callsOf(step);
  let parts;
  if (aux) {
    // the CLI's own JSON side requests (routing, next speaker): a value of the schema it asked for
    const config = b.generationConfig ?? b.config ?? {};
    const schema = config.responseJsonSchema ?? config.responseSchema;
    parts = [{ text: config.responseMimeType === 'application/json' ? JSON.stringify(schema ? valueOf(schema) : {}) : DONE_TEXT }];
  } else if (calls.length) {
    parts = calls.map(c => ({ functionCall: { name: c.tool, args: c.input ?? {} } }));
  } else {
    parts = [{ text: step?.text ?? DONE_TEXT }];
  }
  const response = { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 }, modelVersion: 'gemini-mock' };
  if (!streaming) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(response));
    return;
  }
  const send = sse(res);
  send('', response);
  res.end();
}

/** A small value that satisfies a (Gemini or JSON) schema: what a side request's parser expects. */
function valueOf(schema) {
  const type = String(schema?.type ?? '').toLowerCase();
  if (schema?.enum?.length) return schema.enum[0];
  if (type === 'object') return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, valueOf(v)]));
  if (type === 'array') return [];
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'boolean') return false;
  return 'mock';
}

function classify(method, path) {
  if (method !== 'POST') return undefined;
  if (/\/messages(?:\?|$)/.test(path)) return 'anthropic';
  if (/\/responses(?:\?|$)/.test(path)) return 'responses';
  if (/\/chat\/completions(?:\?|$)/.test(path)) return 'chat';
  if (/:(?:stream)?[gG]enerateContent/.test(path)) return 'gemini';
  return undefined;
}

/**
 * Starts the server. `script`: the steps (see the top of this file). Returns { url, port,
 * requests, setScript(steps), close() }; requests: [{ api, path, body, step }] in arrival order.
 */
export async function startMockModel({ script = [], log } = {}) {
  let steps = script;
  const requests = [];
  const server = http.createServer(async (req, res) => {
    const path = req.url || '/';
    const b = req.method === 'POST' ? await body(req) : {};
    const api = classify(req.method, path);
    const entry = { api: api ?? 'other', method: req.method, path, headers: req.headers, body: b, at: Date.now() };
    requests.push(entry);
    log?.(`${req.method} ${path}${api ? ` (${api})` : ''}`);
    try {
      if (!api) return other(req, res, path);
      const aux = !offersTools(api, b);
      const index = aux ? -1 : toolResultsIn(api, b);
      entry.step = index;
      const step = aux ? { text: DONE_TEXT } : steps[index];
      if (api === 'anthropic') {
        if (/count_tokens/.test(path)) return json(res, { input_tokens: 10 });
        return anthropic(res, b, step);
      }
      if (api === 'responses') return responses(res, b, step);
      if (api === 'chat') return chat(res, b, step);
      if (/countTokens/.test(path)) return json(res, { totalTokens: 10 });
      return gemini(res, b, step, /streamGenerateContent/.test(path), aux);
    } catch (e) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: String(e) } }));
    }
  });
  await new Promise(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    setScript(s) {
      steps = s;
      requests.length = 0;
    },
    close: () => new Promise(resolve => { server.closeAllConnections?.(); server.close(() => resolve()); }),
  };
}

const json = (res, v, status = 200) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(v));
};

/** The model the Ollama endpoints list (VS Code's BYOK Ollama provider), able to call tools. */
export const OLLAMA_MODEL = 'mock-coder';

/**
 * Ollama's own endpoints, as VS Code's Copilot Chat asks them before it offers a BYOK Ollama model:
 * the server version (it refuses below 0.6.4), the models, and each model's capabilities ("tools"
 * makes it usable in agent mode). The chat itself goes to /v1/chat/completions.
 */
function ollama(path) {
  if (/^\/api\/version(?:\?|$)/.test(path)) return { version: '0.12.0' };
  if (/^\/api\/tags(?:\?|$)/.test(path)) {
    return { models: [{ name: OLLAMA_MODEL, model: OLLAMA_MODEL, modified_at: '2025-01-01T00:00:00Z', size: 1, digest: 'mock', details: { family: 'llama', parameter_size: '1B' } }] };
  }
  if (/^\/api\/show(?:\?|$)/.test(path)) {
    return { capabilities: ['completion', 'tools'], model_info: { 'general.architecture': 'llama', 'general.basename': 'Mock Coder', 'llama.context_length': 65536 } };
  }
  return undefined;
}

/** Side endpoints some harnesses ask for (model lists, Ollama's, …): small valid answers. */
function other(req, res, path) {
  const fromOllama = ollama(path);
  if (fromOllama) return json(res, fromOllama);
  if (/\/models(?:\?|$)/.test(path)) {
    return json(res, { object: 'list', data: [{ id: 'mock-model', object: 'model', created: 0, owned_by: 'mock' }], models: [] });
  }
  if (/countTokens/.test(path)) return json(res, { totalTokens: 10 });
  return json(res, {}, req.method === 'GET' ? 200 : 404);
}
