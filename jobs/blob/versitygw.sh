#!/usr/bin/env bash
# versitygw.sh builds the versitygw S3 gateway (Apache-2.0) that the jobs/blob tests run
# against as a second, real S3 implementation. It installs into <repo>/.data/bin/versitygw,
# does nothing when that binary already exists, and prints its path.
#
# A cold build takes minutes (67 s measured on a 2-core machine, with module
# downloads; up to ~5 min on slower ones); with a warm Go build cache about 6 s.
# Delete the binary to rebuild, e.g. after changing VERSITYGW_VERSION.
set -euo pipefail

version="${VERSITYGW_VERSION:-v1.8.0}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bin="$repo/.data/bin"
out="$bin/versitygw"

if [[ ! -x "$out" ]]; then
	mkdir -p "$bin"
	echo "building versitygw $version into $bin (a cold build takes ~5 min)" >&2
	# pkg@version builds with versitygw's own go.mod, not ours.
	GOBIN="$bin" go install "github.com/versity/versitygw/cmd/versitygw@$version"
fi
echo "$out"
