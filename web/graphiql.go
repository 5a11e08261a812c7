package web

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io/fs"
)

// GraphiQLAsset is one file GraphiQL's page loads: the path this binary
// serves it at and its Subresource Integrity value.
type GraphiQLAsset struct {
	Path      string // e.g. /graphiql/graphiql.min.js
	Integrity string // sha256-<base64>
}

// GraphiQLAssets returns GraphiQL's script and style and React's two
// scripts, embedded from static/graphiql/ (copied there by build.mjs from
// the npm packages pinned in package.json) and served by Handler.
func GraphiQLAssets() (js, css, react, reactDOM GraphiQLAsset) {
	return graphiQLAsset("graphiql.min.js"), graphiQLAsset("graphiql.min.css"),
		graphiQLAsset("react.production.min.js"), graphiQLAsset("react-dom.production.min.js")
}

func graphiQLAsset(name string) GraphiQLAsset {
	b, err := fs.ReadFile(static, "static/graphiql/"+name)
	if err != nil {
		panic(fmt.Sprintf("web: GraphiQL asset %s is not embedded: run make web-build", name)) // fixed at build time
	}
	sum := sha256.Sum256(b)
	return GraphiQLAsset{Path: "/graphiql/" + name, Integrity: "sha256-" + base64.StdEncoding.EncodeToString(sum[:])}
}
