# Shared by the trainers' scripts. step OUT ARGS...: runs "$train" with
# ARGS unless "$work/OUT" exists, @OUT in ARGS standing for the output; the
# output is written under a temporary name and renamed once complete, so an
# interrupted run resumes where it stopped.
step() {
  local out=$1
  shift
  [ -s "$work/$out" ] && return
  "$train" "${@//@OUT/$work/$out.part}"
  mv "$work/$out.part" "$work/$out"
}
