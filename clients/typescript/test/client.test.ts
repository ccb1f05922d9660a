// Runs against a live gameai at GAMEAI_URL (clients/test.sh starts one).
import assert from "node:assert/strict";
import { test } from "node:test";
import { GameAi, GameAiError } from "../src/index.js";

const baseUrl = process.env.GAMEAI_URL;
if (!baseUrl) throw new Error("set GAMEAI_URL to a running gameai (clients/test.sh does)");
const ai = new GameAi({ baseUrl });

test("search() answers with a typed, proven move", async () => {
  const answer = await ai.search("tictactoe", { board: ["X.O", "...", "..."] }, { depth: 9 });
  assert.equal(answer.best_move.notation, "a3");
  assert.equal(answer.proven?.result, "win");
  assert.equal(answer.to_move, "X");
});

test("moves may be a list or one string, and a clock sets the budget", async () => {
  const answer = await ai.search("othello", { moves: "f5 d6" }, { clock: { time_left_ms: 2000 } });
  assert.ok(answer.time_ms <= 200, `${answer.time_ms} ms`);
  const listed = await ai.position("connect4", { moves: ["4", "4", "5", "3"] });
  assert.equal(listed.board[5], "..OXX..");
});

test("a refused request throws with the problem document", async () => {
  await assert.rejects(
    ai.search("tictactoe", { moves: ["b2", "b2"] }),
    (e: unknown) => {
      assert.ok(e instanceof GameAiError);
      assert.equal(e.status, 422);
      assert.equal(e.problem?.errors?.[0]?.field, "moves");
      return true;
    },
  );
});

test("stream() yields each depth, then the result", async () => {
  const names: string[] = [];
  let last;
  for await (const event of ai.stream("tictactoe", { moves: "b2" }, { depth: 4 })) {
    names.push(event.event);
    last = event;
  }
  assert.deepEqual(names.slice(-1), ["result"]);
  assert.ok(names.includes("depth"));
  assert.equal(last?.event === "result" && last.data.depth, 4);
});

test("a session plays the client's move and the AI's reply", async () => {
  const session = await ai.createSession({ game: "tictactoe", ai: { plays: "O", depth: 9 } });
  const after = await ai.play(session.id, "b2", session.version);
  assert.equal(after.moves.length, 2);
  assert.equal(after.ai_search?.to_move, "O");
  const games = await ai.games();
  assert.ok(games.games.some((g) => g.name === "gomoku"));
});
