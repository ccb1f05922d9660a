/**
 * A typed client for gameai. `schema.ts` is generated from the
 * service's `openapi.yaml` by openapi-typescript (`npm run generate`);
 * calls go through openapi-fetch, so every path, body and answer is
 * checked by the compiler. `GameAi` adds what makes the API pleasant:
 * a `search()` that takes a game and its moves, errors as exceptions
 * carrying the problem document, and the event stream as an async
 * iterator.
 */
import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./schema.js";

export type { components, paths };
type Schemas = components["schemas"];
export type SearchRequest = Schemas["SearchRequest"];
export type SearchResponse = Schemas["SearchResponse"];
export type PositionResponse = Schemas["PositionResponse"];
export type GamesResponse = Schemas["GamesResponse"];
export type SessionResponse = Schemas["SessionResponse"];
export type CreateSessionRequest = Schemas["CreateSessionRequest"];
export type DepthEvent = Schemas["DepthEvent"];
export type LineBody = Schemas["LineBody"];
export type Problem = Schemas["Problem"];
export type Clock = Schemas["ClockBody"];

/** A position: the moves from the start, or a board. */
export type Position = {
  moves?: string[] | string;
  board?: string[];
  to_move?: Schemas["Side"];
  size?: number;
  rules?: string;
};

/** How hard to search: everything in a search request but the position. */
export type Controls = Omit<SearchRequest, "game" | keyof Position | "record">;

/** One event of a streamed search. */
export type SearchEvent =
  | { event: "depth"; data: DepthEvent }
  | { event: "line"; data: LineBody }
  | { event: "result"; data: SearchResponse };

/** A refused request: the status, the problem document and, for 429 and 503, the wait. */
export class GameAiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem | undefined,
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(problem?.detail ?? `gameai answered ${status}`);
    this.name = "GameAiError";
  }
}

export interface Options {
  /** The service's address, e.g. `http://localhost:8080`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <key>` when the server requires keys. */
  apiKey?: string;
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof fetch;
}

export class GameAi {
  /** The generated client, for any route the helpers below leave out. */
  readonly api: Client<paths>;
  private readonly baseUrl: string;
  private readonly headers: Record<string, string>;
  private readonly fetcher: typeof fetch;

  constructor(options: Options) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.headers = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};
    this.fetcher = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.api = createClient<paths>({
      baseUrl: this.baseUrl,
      headers: this.headers,
      fetch: this.fetcher,
    });
  }

  /** The best move in `position` of `game`, searched within `controls`. */
  async search(game: string, position: Position, controls: Controls = {}): Promise<SearchResponse> {
    const { data, error, response } = await this.api.POST("/v1/search", {
      body: { game, ...position, ...controls },
    });
    return ok(data, error, response);
  }

  /** Validates and describes a position without searching it. */
  async position(game: string, position: Position): Promise<PositionResponse> {
    const { data, error, response } = await this.api.POST("/v1/position", {
      body: { game, ...position },
    });
    return ok(data, error, response);
  }

  /** The games the server plays, with their sizes, rules and limits. */
  async games(): Promise<GamesResponse> {
    const { data, error, response } = await this.api.GET("/v1/games");
    return ok(data, error, response);
  }

  /** Starts a game kept on the server. */
  async createSession(request: CreateSessionRequest): Promise<SessionResponse> {
    const { data, error, response } = await this.api.POST("/v1/sessions", { body: request });
    return ok(data, error, response);
  }

  /** Plays the client's move in a session; the AI's reply comes in the same answer. */
  async play(sessionId: string, move: string, expectedVersion?: number): Promise<SessionResponse> {
    const { data, error, response } = await this.api.POST("/v1/sessions/{id}/moves", {
      params: { path: { id: sessionId } },
      body: { move, expected_version: expectedVersion },
    });
    return ok(data, error, response);
  }

  /**
   * Streams a search: each completed depth (or line, with `multi_pv`),
   * then the result. Breaking out of the loop, or aborting `signal`,
   * closes the connection, which stops the search on the server.
   */
  async *stream(
    game: string,
    position: Position,
    controls: Controls = {},
    signal?: AbortSignal,
  ): AsyncGenerator<SearchEvent> {
    const body: SearchRequest = { game, ...position, ...controls };
    const controller = new AbortController();
    const stop = () => controller.abort();
    signal?.addEventListener("abort", stop);
    try {
      const response = await this.fetcher(`${this.baseUrl}/v1/search/stream`, {
        method: "POST",
        headers: { ...this.headers, "content-type": "application/json", accept: "text/event-stream" },
        body: JSON.stringify(body),
        signal: controller.signal,
      });
      if (!response.ok || !response.body) {
        const problem = (await response.json().catch(() => undefined)) as Problem | undefined;
        throw new GameAiError(response.status, problem, retryAfter(response));
      }
      const decoder = new TextDecoder();
      let buffered = "";
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffered += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffered.indexOf("\n\n")) >= 0) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          const event = parseEvent(block);
          if (!event) continue;
          if (event.name === "error") {
            const problem = event.data as Problem;
            throw new GameAiError(problem.status, problem, undefined);
          }
          yield { event: event.name, data: event.data } as SearchEvent;
          if (event.name === "result") return;
        }
      }
    } finally {
      signal?.removeEventListener("abort", stop);
      controller.abort();
    }
  }
}

function ok<T>(data: T | undefined, error: unknown, response: Response): T {
  if (data === undefined || error !== undefined) {
    throw new GameAiError(response.status, error as Problem | undefined, retryAfter(response));
  }
  return data;
}

function retryAfter(response: Response): number | undefined {
  const value = response.headers.get("retry-after");
  return value === null ? undefined : Number(value);
}

/** One Server-Sent Events block: its name and JSON data (comments and keep-alives give none). */
function parseEvent(block: string): { name: string; data: unknown } | undefined {
  let name = "message";
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith("event:")) name = line.slice(6).trim();
    else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
  }
  if (data.length === 0) return undefined;
  return { name, data: JSON.parse(data.join("\n")) };
}
