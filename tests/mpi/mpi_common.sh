# Shared by the MPI tests (sourced): `ranks N command...` runs the command on N ranks on this
# machine only — loopback and shared memory, more ranks than cores allowed, root allowed (CI runs
# as root) — with a time limit, so that a hang fails the test instead of stalling CI.
# Expects $mpirun; sets up fail() and $failures.
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
mpi_env=(OMPI_MCA_btl=self,vader OMPI_MCA_oob_tcp_if_include=lo OMPI_MCA_btl_tcp_if_include=lo
  OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1)
ranks() {
  local n=$1; shift
  timeout -k 10 90 env "${mpi_env[@]}" "$mpirun" --oversubscribe --bind-to none -np "$n" "$@"
}
# `aborting_ranks N command...`: a job one of whose ranks fails and stops it with MPI_Abort. On a
# loaded machine Open MPI's own mpirun sometimes hangs (or segfaults in PMIx_server_finalize)
# after the ranks are gone — an upstream abort race (open-mpi/ompi#5528, #3225; mpirun logs
# "Data unpack would read past end of buffer in file util/show_help.c"), seen here in 1 to 8 runs
# of 25 on a loaded 2-core machine, with builds of gwb from different sessions alike. What the
# tests check is gwb's part: every rank ends and the failing one's message is there. So the job
# is watched: when every rank mpirun started has exited (its children are gone or zombies) and
# mpirun itself is still there 5 s later, mpirun is stopped and the job counts as ended with
# status 1, with a note on stderr. Only ranks still running at the time limit are a hang (124).
aborting_ranks() {
  local n=$1; shift
  env "${mpi_env[@]}" "$mpirun" --oversubscribe --bind-to none -np "$n" "$@" &  # env execs mpirun
  local job=$! start=$SECONDS seen=0 gone_since=-1 live
  while kill -0 "$job" 2> /dev/null; do
    live=$(ps --ppid "$job" -o stat= 2> /dev/null | grep -vc '^Z')
    if [ -n "$(ps --ppid "$job" -o pid= 2> /dev/null)" ]; then seen=1; fi
    if [ "$seen" -eq 1 ] && [ "$live" -eq 0 ]; then
      [ "$gone_since" -ge 0 ] || gone_since=$SECONDS
      if [ $((SECONDS - gone_since)) -ge 5 ]; then
        echo "note: every rank ended but mpirun did not (the upstream abort race); stopped it" >&2
        kill -9 "$job" 2> /dev/null
        wait "$job" 2> /dev/null
        return 1
      fi
    else
      gone_since=-1
    fi
    if [ $((SECONDS - start)) -ge 90 ]; then  # ranks still running after 90 s: a hang
      pkill -9 -P "$job" 2> /dev/null  # the ranks first, while they are still mpirun's
      kill -9 "$job" 2> /dev/null
      wait "$job" 2> /dev/null
      return 124
    fi
    sleep 0.2
  done
  wait "$job"
}
# same FILE_A FILE_B WHAT: byte-identical files.
same() { cmp -s "$1" "$2" || fail "$3: $1 and $2 differ"; }
finish() {
  if [ "$failures" -eq 0 ]; then echo "all MPI checks passed"; exit 0; fi
  echo "$failures MPI check(s) failed"; exit 1
}
