# require.sh - sourced by a .sh test that needs a tool this project does
# not build (tests/run, "Skipped scripts").
#   require TOOL [COMMAND...]   (COMMAND: TOOL when none is given)
# Sets 'required' to the path of the first COMMAND found.  Where none is,
# the test is skipped (exit 77), or fails when SUPERSTEP_TEST_REQUIRE names
# TOOL (CI installs it and requires it).
require() {
    local tool=$1 c
    shift
    [ $# -gt 0 ] || set -- "$tool"
    for c in "$@"; do
        required=$(command -v "$c") && return 0
    done
    case " ${SUPERSTEP_TEST_REQUIRE:-} " in
    *" $tool "*)
        echo "${0##*/}: $tool is needed for this test (apt-get install $tool; .ci/run installs it)" >&2
        exit 1 ;;
    esac
    echo "SKIP: no $tool (apt-get install $tool; SUPERSTEP_TEST_REQUIRE=$tool makes this a failure)"
    exit 77
}
