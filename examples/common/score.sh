# Shared by the gomoku refinement scripts. score RULE GAMES STRIDE NAME
# [COUNT...]: four gomoku_engine_evals.py scorers side by side, "$engine"
# (a Piskvork engine: classical Rapfi) searching positions of GAMES at
# 50,000 nodes under RULE, lane L writing $work/NAME-L.txt and stopping at
# the Lth COUNT (with none, at the end of its games).
score() {
  local rule=$1 games=$2 stride=$3 name=$4 lane p
  shift 4
  local scorers=()
  for lane in 0 1 2 3; do
    python3 examples/gomoku_engine_evals.py --rule "$rule" "$engine" 50000 "$stride" "$lane" 4 \
      "$games" "$work/$name-$lane.txt" "${@:lane+1:1}" &
    scorers+=($!)
  done
  for p in "${scorers[@]}"; do wait "$p"; done
}
