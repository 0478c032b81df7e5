// Package layers has no code of its own: its tests hold the module's shape
// and check the code against it, as the standard library's
// go/build/deps_test.go does.
//
//   - table_test.go is the one table of which package may import which
//     (layers), what a package must never depend on even indirectly (never),
//     and the edges that today's code has against those rules, each with the
//     issue that removes it (temporary).
//   - layers_test.go checks that table against go list -deps, on several
//     platforms and build tags, and that docs/architecture.md shows it as
//     generated (go test ./internal/layers -update rewrites the doc).
//   - api_test.go checks the edges of the module's public API: no exported
//     mutable package-level variables, and no exported field, parameter or
//     result of a type that users cannot name.
package layers
