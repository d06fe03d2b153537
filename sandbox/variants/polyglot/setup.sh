#!/bin/sh
# Runs in the variant's root after its Debian packages: put the backported Go on PATH, and
# build Go's standard library once into a cache that each test run starts from (Go keeps
# no compiled standard library: an empty cache compiles it anew, ~25 s per `go test`).
set -eu
for tool in go gofmt; do ln -sf "/usr/lib/go-1.23/bin/$tool" "/usr/local/bin/$tool"; done
warm=/tmp/dgm-go-warm
mkdir -p "$warm" /opt/dgm
printf 'module warm\n\ngo 1.23\n' > "$warm/go.mod"
cat > "$warm/warm_test.go" <<'GO'
package warm

import (
	_ "bufio"
	_ "bytes"
	_ "container/heap"
	_ "container/list"
	_ "encoding/json"
	_ "errors"
	_ "fmt"
	_ "io"
	_ "maps"
	_ "math"
	_ "math/big"
	_ "math/rand"
	_ "os"
	_ "reflect"
	_ "regexp"
	_ "slices"
	_ "sort"
	_ "strconv"
	_ "strings"
	_ "sync"
	_ "testing"
	_ "time"
	_ "unicode"
	_ "unicode/utf8"
)
GO
(cd "$warm" && GOCACHE=/opt/dgm/go-cache GOPATH=/tmp/go GOPROXY=off GOFLAGS=-mod=mod GOTOOLCHAIN=local \
	GOTELEMETRY=off /usr/lib/go-1.23/bin/go test -json ./... >/dev/null)
rm -rf "$warm" /tmp/go
chmod -R a+rX /opt/dgm/go-cache
