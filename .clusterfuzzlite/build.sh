#!/bin/bash -eu
# ClusterFuzzLite entry point; the build itself is ci/oss-fuzz-build.sh (also used by OSS-Fuzz).
exec "$SRC/docconform/ci/oss-fuzz-build.sh"
