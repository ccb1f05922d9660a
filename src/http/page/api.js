// The API client: every call the page makes goes through `api()`, which
// sends the API key when there is one, reads problem+json refusals into an
// `ApiError` a person can read, and tells a listener each call as the curl
// command that repeats it. Nothing here touches the page, so a frontend can
// copy this module as it is.

let key = '';
let listener = () => {};

/** The API key sent as `Authorization: Bearer …`; empty for none. */
export function apiKey() {
  return key;
}

export function setApiKey(value) {
  key = value;
}

/** `show(curl)` hears each call made without `quiet`, as a curl command. */
export function onCall(show) {
  listener = show;
}

/** A refused or failed call: the HTTP status (0 when the service could not be reached) and the problem document. */
export class ApiError extends Error {
  constructor(status, problem, message) {
    super(message);
    this.status = status;
    this.problem = problem;
  }
}

/** Calls the API; shows the call as curl unless `quiet` (helper calls). */
export async function api(method, path, body, { signal, quiet, raw } = {}) {
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (key) headers.authorization = `Bearer ${key}`;
  if (!quiet) listener(curlFor(method, path, body));
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw new ApiError(0, null, `The service could not be reached (${e.message}). Is it running?`);
  }
  const text = await response.text();
  if (raw && response.ok) return text;
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    throw new ApiError(response.status, data, problemMessage(response, data));
  }
  return data;
}

/** A person's reading of a problem+json answer. */
export function problemMessage(response, problem) {
  let message = (problem && problem.detail) || `${response.status} ${response.statusText}`.trim();
  if (!/[.!?]$/.test(message)) message += '.';
  if (problem && Array.isArray(problem.errors)) {
    for (const e of problem.errors) {
      if (e && e.message && !message.includes(e.message)) message += ` ${e.field}: ${e.message}.`;
    }
  }
  if (response.status === 503) {
    const retry = response.headers.get('retry-after');
    message += retry ? ` Try again in ${retry} s.` : ' Try again shortly.';
  }
  return message;
}

function curlFor(method, path, body) {
  const quote = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
  const implied = method === 'GET' || (method === 'POST' && body !== undefined);
  const parts = [`curl -s${implied ? '' : ` -X ${method}`} ${quote(location.origin + path)}`];
  if (key) parts.push('-H "authorization: Bearer $GAMEAI_API_KEY"');
  if (body !== undefined) {
    parts.push("-H 'content-type: application/json'");
    parts.push(`-d ${quote(JSON.stringify(body))}`);
  }
  return parts.join(' \\\n  ');
}
