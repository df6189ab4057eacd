# Shared by the MPI tests (sourced): `ranks N command...` runs the command on N ranks on this
# machine only — loopback and shared memory, more ranks than cores allowed, root allowed (CI runs
# as root) — with a time limit, so that a hang fails the test instead of stalling CI.
# Expects $mpirun; sets up fail() and $failures.
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ranks() {
  local n=$1; shift
  OMPI_MCA_btl=self,vader OMPI_MCA_oob_tcp_if_include=lo OMPI_MCA_btl_tcp_if_include=lo \
  OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    timeout -k 10 90 "$mpirun" --oversubscribe --bind-to none -np "$n" "$@"
}
# `aborting_ranks N command...`: a job one of whose ranks fails and stops it with MPI_Abort. On a
# loaded machine Open MPI's own mpirun sometimes hangs (or segfaults in PMIx_server_finalize)
# after the ranks are gone — an upstream abort race (open-mpi/ompi#5528, #3225), seen here in
# about 1 run in 10 with four busy loops beside the job, with an unchanged gwb as well. A hang
# (status 124, or 137 when the time limit had to kill) is run once more, so that only a job that
# hangs twice fails the test.
aborting_ranks() {
  ranks "$@"
  local status=$?
  if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    echo "note: mpirun hung after the abort (status $status); running the job once more" >&2
    ranks "$@"
    status=$?
  fi
  return "$status"
}
# same FILE_A FILE_B WHAT: byte-identical files.
same() { cmp -s "$1" "$2" || fail "$3: $1 and $2 differ"; }
finish() {
  if [ "$failures" -eq 0 ]; then echo "all MPI checks passed"; exit 0; fi
  echo "$failures MPI check(s) failed"; exit 1
}
