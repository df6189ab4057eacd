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
# same FILE_A FILE_B WHAT: byte-identical files.
same() { cmp -s "$1" "$2" || fail "$3: $1 and $2 differ"; }
finish() {
  if [ "$failures" -eq 0 ]; then echo "all MPI checks passed"; exit 0; fi
  echo "$failures MPI check(s) failed"; exit 1
}
