// Package pages serves the server-rendered HTML pages: for now the
// documentation page of each error code that problem documents link to.
package pages
