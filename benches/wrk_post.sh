# Sourced by the load benches: wrk_post FILE JSON writes a wrk script that
# POSTs JSON as the body of every request.
wrk_post() {
  cat >"$1" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '$2'
LUA
}
